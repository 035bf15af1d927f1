// The opencode plugin `dist/hookbox install-agent opencode` writes, loaded as opencode loads it (an
// ES module whose export is called with the project directory) and driven with the inputs opencode
// hands its hooks — without opencode itself (test/e2e/agents/opencode-hookbox.test.ts runs the
// real one). It must ask `hookbox emit` (which lets only a daemon it proved genuine decide), never
// a socket itself, and block a tool call it could not get an answer for.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram } from "../helpers/binary.ts";
import { DaemonProcess, DaemonWorld } from "../helpers/daemon.ts";
import { startImpostor } from "../helpers/impostor.ts";

type Hook = (input: Record<string, unknown>, output: Record<string, unknown>) => Promise<void>;
type Plugin = (input: { directory: string }) => Promise<Record<string, Hook>>;

const ENV_KEYS = ["HOME", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME"] as const;

describe("the opencode plugin install-agent writes (dist/hookbox, no opencode)", () => {
  let world: DaemonWorld;
  let project: string;
  let saved: Record<string, string | undefined>;
  const daemons: DaemonProcess[] = [];

  beforeEach(() => {
    world = new DaemonWorld();
    project = join(world.dir, "project");
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(join(world.home, ".config", "hookbox"), { recursive: true });
    writeFileSync(join(world.home, ".config", "hookbox", "hookbox.yaml"), "builtin: [guard-secrets]\n");
    // The plugin reads its environment when it is called, as it would inside opencode.
    saved = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));
    process.env.HOME = world.home;
    process.env.XDG_RUNTIME_DIR = world.runtimeDir;
    delete process.env.XDG_CONFIG_HOME;
    delete process.env.XDG_DATA_HOME;
  });
  afterEach(async () => {
    for (const daemon of daemons.splice(0)) await daemon.stop();
    for (const key of ENV_KEYS)
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    world.cleanup();
  });

  /** install-agent opencode --user with `command` as the fallback executable; the plugin module, freshly imported. */
  async function installed(command: string): Promise<Record<string, Hook>> {
    const run = await runProgram([BUILT_BINARY, "install-agent", "opencode", "--user", "--command", command], { cwd: project, env: world.env() });
    expect(run.code, run.stderr).toBe(0);
    const file = join(world.home, ".config", "opencode", "plugin", "hookbox.js");
    // A fresh path per import: the module cache would hand back an earlier test's plugin.
    const copy = join(world.dir, `hookbox-${Math.random().toString(36).slice(2)}.mjs`);
    writeFileSync(copy, readFileSync(file, "utf8"));
    const module = (await import(pathToFileURL(copy).href)) as { HookboxPlugin: Plugin };
    return module.HookboxPlugin({ directory: project });
  }

  /** opencode's tool.execute.before for a write; resolves to the error it threw, or undefined when the call may go on. */
  async function writeFile(hooks: Record<string, Hook>, path: string): Promise<string | undefined> {
    const output = { args: { filePath: join(project, path), content: "API_KEY=1\n" } };
    try {
      await hooks["tool.execute.before"]!({ tool: "write", sessionID: "s1", callID: "c1" }, output);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }

  it("a program on the daemon's socket that answers like one decides nothing: the plugin asks hookbox emit, which refuses it", async () => {
    const squatter = await startImpostor(world.socket);
    try {
      const hooks = await installed(BUILT_BINARY);
      expect(await writeFile(hooks, ".env")).toMatch(/^guard-secrets: Write on \S+\/\.env: blocked/);
      expect(await writeFile(hooks, "notes.md")).toBeUndefined();
    } finally {
      await squatter.stop();
    }
  });

  it("through a genuine daemon of this hook set, by way of emit: the same answers, and the event reaches the tool's result", async () => {
    daemons.push(await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "1"], {}, { defaultHooks: true }));
    const hooks = await installed(BUILT_BINARY);
    expect(await writeFile(hooks, ".env")).toMatch(/^guard-secrets: Write on \S+\/\.env: blocked/);
    expect(await writeFile(hooks, "notes.md")).toBeUndefined();
    const output = { output: "done" };
    await hooks["tool.execute.after"]!({ tool: "write", sessionID: "s1", callID: "c1", args: { filePath: join(project, "notes.md") } }, output);
    expect(output.output).toBe("done");
  });

  it("without a daemon, runs hookbox emit: the same answer", async () => {
    const hooks = await installed(BUILT_BINARY);
    expect(await writeFile(hooks, ".env")).toMatch(/^guard-secrets: Write on \S+\/\.env: blocked/);
    expect(await writeFile(hooks, "notes.md")).toBeUndefined();
  });

  it("puts a transform's rewrite into the very arguments object opencode handed it, which is what opencode runs", async () => {
    // A user hook (the operator's tier: its modify grant holds as declared) that moves every write to notes.md.
    const hookDir = join(world.home, ".config", "hookbox", "hooks", "redirect");
    mkdirSync(hookDir, { recursive: true });
    writeFileSync(
      join(hookDir, "hook.yaml"),
      `id: redirect\nevents: [PreToolUse]\nmatch: { tool: Write }\npermissions: { modify: [tool_input.filePath, tool_input.mode] }\nhandler: { code: "export default (e) => ({ action: 'modify', data: { filePath: '${join(project, "notes.md")}', content: e.tool_input.content } })" }\n`,
    );
    const hooks = await installed(BUILT_BINARY);
    const args: Record<string, unknown> = { filePath: join(project, "draft.md"), content: "hello\n", mode: "overwrite" };
    const output = { args };
    await hooks["tool.execute.before"]!({ tool: "write", sessionID: "s1", callID: "c1" }, output);
    expect(output.args).toBe(args);
    expect(args).toEqual({ filePath: join(project, "notes.md"), content: "hello\n" });
  });

  it("when Hookbox cannot be asked at all, the tool call is blocked with the reason; other events go on, saying why", async () => {
    const hooks = await installed(join(world.dir, "no-such-hookbox"));
    expect(await writeFile(hooks, "notes.md")).toMatch(/^Hookbox could not evaluate this PreToolUse \(.*ENOENT.*\), so it is blocked\.$/);
    const output = { output: "done" };
    await hooks["tool.execute.after"]!({ tool: "write", sessionID: "s1", callID: "c1", args: {} }, output);
    expect(output.output).toBe("done");
  });
});
