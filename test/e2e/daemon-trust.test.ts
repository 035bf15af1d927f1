import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startImpostor } from "../helpers/impostor.ts";
import { BUILT_BINARY, runProgram, type RunResult } from "../helpers/binary.ts";
import { DaemonProcess, DaemonWorld, ROOT } from "../helpers/daemon.ts";

/**
 * Issue 27: `emit` lets only a genuine daemon decide. Whatever else answers where emit asks — a
 * server of the agent's that answers the right shape with "allow", a genuine `hookbox serve`
 * started with another HOME, operator file or hooks, the genuine binary with code injected, a
 * stale socket — the event is evaluated in emit's own process (here: guard-secrets denies a
 * .env write) and stderr says why. The binary, as an agent runs it, in a temporary HOME.
 */

const OPERATOR = "builtin: [guard-secrets]\ndaemon: { auto_start: false }\n";

/** A server that is not Hookbox: every request answered 200 with the reply shape emit expects, saying "allow". */

let world: DaemonWorld;
let ws: string;
const running: { stop(): Promise<unknown> }[] = [];

beforeAll(() => {
  world = new DaemonWorld();
  ws = join(realpathSync(world.dir), "project");
  mkdirSync(join(ws, "src"), { recursive: true });
  mkdirSync(join(world.home, ".config", "hookbox"), { recursive: true });
  writeFileSync(join(world.home, ".config", "hookbox", "hookbox.yaml"), OPERATOR);
});
afterEach(async () => {
  for (const process of running.splice(0)) await process.stop();
});
afterAll(() => world.cleanup());

async function impostor(path: string): Promise<void> {
  running.push(await startImpostor(path));
}

const claude = {
  session_id: "c1",
  transcript_path: "/tmp/t.jsonl",
  cwd: "",
  hook_event_name: "PreToolUse",
  tool_name: "Write",
  tool_input: { file_path: ".env", content: "KEY=1\n" },
  tool_use_id: "toolu_1",
};
const gemini = {
  session_id: "g1",
  transcript_path: "/tmp/g.jsonl",
  cwd: "",
  hook_event_name: "BeforeTool",
  timestamp: "2026-11-22T03:05:12.685Z",
  tool_name: "write_file",
  tool_input: { file_path: ".env", content: "KEY=1\n" },
};
const codex = {
  session_id: "x1",
  turn_id: "1",
  transcript_path: null,
  cwd: "",
  hook_event_name: "PreToolUse",
  model: "gpt-5-codex",
  permission_mode: "default",
  tool_name: "apply_patch",
  tool_input: { command: "*** Begin Patch\n*** Add File: .env\n+KEY=1\n*** End Patch\n" },
  tool_use_id: "call_1",
};

const AGENTS = { claude, gemini, codex } as const;
type Agent = keyof typeof AGENTS;

/** The payload with paths in the project (each agent names the file its own way). */
function payload(agent: Agent): object {
  const base = AGENTS[agent];
  const input = base.tool_input as Record<string, string>;
  return { ...base, cwd: ws, tool_input: "file_path" in input ? { ...input, file_path: join(ws, ".env") } : input };
}

function emit(agent: Agent, env: Record<string, string> = {}, options: { withoutRuntimeDir?: boolean } = {}): Promise<RunResult> {
  const full = world.env(env);
  if (options.withoutRuntimeDir) delete (full as Record<string, string | undefined>).XDG_RUNTIME_DIR;
  return runProgram([BUILT_BINARY, "emit", "PreToolUse", "--agent", agent], { stdin: JSON.stringify(payload(agent)), env: full, cwd: ws });
}

/** guard-secrets' deny, in each agent's own words; undefined when the answer let the write through. */
function denied(agent: Agent, out: RunResult): string | undefined {
  if (agent === "codex") return out.code === 2 ? out.stderr : undefined;
  if (out.stdout.trim() === "") return undefined;
  const answer = JSON.parse(out.stdout) as {
    decision?: string;
    reason?: string;
    hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
  };
  if (agent === "claude")
    return answer.hookSpecificOutput?.permissionDecision === "deny" ? answer.hookSpecificOutput.permissionDecisionReason : undefined;
  return answer.decision === "block" ? answer.reason : undefined;
}

function servedBy(): string[] {
  const file = world.auditFile;
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { kind?: string; served_by?: { via: string } })
    .filter((record) => record.kind === "decision")
    .map((record) => record.served_by?.via ?? "?");
}

/** Every agent's .env write is denied by emit itself, and stderr names the socket and why it was not used. */
async function expectInProcessDeny(
  why: RegExp,
  socket: string,
  env: Record<string, string> = {},
  options: { withoutRuntimeDir?: boolean } = {},
): Promise<void> {
  for (const agent of Object.keys(AGENTS) as Agent[]) {
    const before = servedBy().length;
    const out = await emit(agent, env, options);
    expect(denied(agent, out), `${agent}: ${out.stdout} ${out.stderr}`).toMatch(/guard-secrets/);
    expect(out.stderr, agent).toContain(socket);
    expect(out.stderr, agent).toMatch(why);
    expect(servedBy().slice(before), agent).toEqual(["emit"]);
  }
}

describe("a server that is not Hookbox, answering the right shape with allow, on every socket emit asks", () => {
  const NOT_HOOKBOX = /evaluating here, not through the daemon: .*: not Hookbox: pid \d+ runs .*node.*, not this Hookbox binary/;

  it("the default socket ($XDG_RUNTIME_DIR/hookbox/hookbox.sock)", async () => {
    await impostor(world.socket);
    await expectInProcessDeny(NOT_HOOKBOX, world.socket);
  });

  it("the default socket without XDG_RUNTIME_DIR (~/.hookbox/run/hookbox.sock)", async () => {
    const socket = join(world.home, ".hookbox", "run", "hookbox.sock");
    await impostor(socket);
    await expectInProcessDeny(NOT_HOOKBOX, socket, {}, { withoutRuntimeDir: true });
  });

  it("HOOKBOX_SOCKET", async () => {
    const socket = join(world.dir, "elsewhere", "hookbox.sock");
    await impostor(socket);
    await expectInProcessDeny(NOT_HOOKBOX, socket, { HOOKBOX_SOCKET: socket });
  });

  it("the auto socket (auto-<hash>.sock, as `hookbox daemon status --json` names it for this hook set), with auto-start on: none is started while it squats", async () => {
    const config = join(world.dir, "auto-on.yaml");
    writeFileSync(config, "builtin: [guard-secrets]\n");
    const env = { HOOKBOX_CONFIG: config };
    const status = await runProgram([BUILT_BINARY, "daemon", "status", "--json"], { cwd: ws, env: world.env(env) });
    const socket = (JSON.parse(status.stdout) as { auto_start: { on: boolean; socket: string } }).auto_start;
    expect(socket.on).toBe(true);
    expect(socket.socket).toMatch(/\/hookbox\/auto-[0-9a-f]{16}\.sock$/);
    await impostor(socket.socket);
    await expectInProcessDeny(NOT_HOOKBOX, socket.socket, env);
    // doctor says so, loudly, and fails.
    const doctor = await runProgram([BUILT_BINARY, "doctor"], { cwd: ws, env: world.env(env) });
    expect(doctor.code).not.toBe(0);
    expect(doctor.stdout + doctor.stderr).toMatch(new RegExp(`${socket.socket}: NOT A VERIFIED HOOKBOX DAEMON — not Hookbox`));
  });

  it("on the default socket while this hook set's own auto-started daemon answers: that one decides, and emit still says what squats the default socket", async () => {
    const config = join(world.dir, "auto-on-2.yaml");
    writeFileSync(config, "builtin: [guard-secrets]\n");
    const env = { HOOKBOX_CONFIG: config };
    await impostor(world.socket);
    // The first emit answers itself and starts the daemon of this hook set; the next ones are its.
    expect(denied("claude", await emit("claude", env))).toMatch(/guard-secrets/);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const status = JSON.parse((await runProgram([BUILT_BINARY, "daemon", "status", "--json"], { cwd: ws, env: world.env(env) })).stdout) as {
        daemons: { serves_this_hook_set: boolean }[];
      };
      if (status.daemons.some((d) => d.serves_this_hook_set)) break;
      if (Date.now() > deadline) throw new Error("no daemon came up");
      await new Promise((r) => setTimeout(r, 100));
    }
    running.push({ stop: () => runProgram([BUILT_BINARY, "daemon", "stop"], { cwd: ws, env: world.env(env) }) });
    const before = servedBy().length;
    const out = await emit("claude", env);
    expect(denied("claude", out)).toMatch(/guard-secrets/);
    expect(servedBy().slice(before)).toEqual(["daemon"]);
    expect(out.stderr).toMatch(new RegExp(`^hookbox: not using ${world.socket}: not Hookbox: pid \\d+ runs`));
  });

  it("the person's own commands refuse it too: doctor fails naming it, daemon status marks it, approvals will not read it", async () => {
    await impostor(world.socket);
    const doctor = await runProgram([BUILT_BINARY, "doctor"], { cwd: ws, env: world.env() });
    expect(doctor.code).not.toBe(0);
    expect(doctor.stdout + doctor.stderr).toMatch(/NOT A VERIFIED HOOKBOX DAEMON — not Hookbox: pid \d+ runs/);
    const status = JSON.parse((await runProgram([BUILT_BINARY, "daemon", "status", "--json"], { cwd: ws, env: world.env() })).stdout) as {
      daemons: { socket: string; distrusted?: string; serves_this_hook_set: boolean }[];
    };
    expect(status.daemons.find((d) => d.socket === world.socket)).toMatchObject({
      serves_this_hook_set: false,
      distrusted: expect.stringMatching(/^not Hookbox/),
    });
    const approvals = await runProgram([BUILT_BINARY, "approvals"], { cwd: ws, env: world.env() });
    expect(approvals.code).not.toBe(0);
    expect(approvals.stderr).toMatch(/is not a verified Hookbox daemon \(not Hookbox/);
  });
});

describe("a genuine hookbox serve that serves another hook set, on the default socket", () => {
  it("started with another HOME", async () => {
    const other = join(world.dir, "other-home");
    mkdirSync(other, { recursive: true });
    running.push(await DaemonProcess.start([BUILT_BINARY], world, [], { HOME: other }, { defaultHooks: true }));
    await expectInProcessDeny(/a Hookbox serving another hook set .*home directory: daemon "[^"]*other-home"/, world.socket);
  });

  it("started with another operator file", async () => {
    const config = join(world.dir, "lenient.yaml");
    writeFileSync(config, "daemon: { auto_start: false }\n");
    running.push(await DaemonProcess.start([BUILT_BINARY], world, ["--config", config], {}, { defaultHooks: true }));
    await expectInProcessDeny(/a Hookbox serving another hook set .*operator file: daemon "[^"]*lenient\.yaml"/, world.socket);
  });

  it("started with other --hooks", async () => {
    running.push(await DaemonProcess.start([BUILT_BINARY], world, [], {}));
    await expectInProcessDeny(/a Hookbox serving another hook set .*--hooks directories: daemon \[/, world.socket);
  });
});

describe("a stale socket, and the genuine binary started with code injected", () => {
  it("a stale socket file (its server was killed): nothing listens", async () => {
    await (await startImpostor(world.socket)).stop();
    expect(existsSync(world.socket)).toBe(true);
    await expectInProcessDeny(/a stale socket: nothing listens on it/, world.socket);
    rmSync(world.socket);
  });

  it("LD_PRELOAD", async () => {
    // A library that does not exist is enough: the loader warns and goes on, and the variable is what is checked.
    running.push(await DaemonProcess.start([BUILT_BINARY], world, [], { LD_PRELOAD: join(world.dir, "inject.so") }, { defaultHooks: true }));
    await expectInProcessDeny(/evaluating here, not through the daemon: .*: a Hookbox started with LD_PRELOAD: pid \d+/, world.socket);
  });

  it("BUN_OPTIONS=--preload (code that runs inside the genuine binary)", async () => {
    const preload = join(world.dir, "preload.js");
    writeFileSync(preload, "globalThis.injected = true;\n");
    running.push(await DaemonProcess.start([BUILT_BINARY], world, [], { BUN_OPTIONS: `--preload ${preload}` }, { defaultHooks: true }));
    await expectInProcessDeny(/evaluating here, not through the daemon: .*: a Hookbox started with BUN_OPTIONS: pid \d+/, world.socket);
  });
});

describe("where no daemon can be proven, none decides", () => {
  it("emit run from its sources under Node: a genuine daemon on the socket is not asked; emit evaluates and says why", async () => {
    running.push(await DaemonProcess.start([BUILT_BINARY], world, [], {}, { defaultHooks: true }));
    const sources = [process.execPath, "--import", createRequire(import.meta.url).resolve("tsx"), join(ROOT, "src/main.ts")];
    const before = servedBy().length;
    const out = await runProgram([...sources, "emit", "PreToolUse", "--agent", "claude"], {
      stdin: JSON.stringify(payload("claude")),
      env: world.env({ NODE_PATH: join(ROOT, "node_modules") }),
      cwd: ws,
    });
    expect(denied("claude", out), out.stderr).toMatch(/guard-secrets/);
    expect(out.stderr).toMatch(
      new RegExp(
        `evaluating here, not through the daemon: ${world.socket}: cannot verify on this platform whether a genuine Hookbox daemon answers there: Hookbox runs from its sources under Node`,
      ),
    );
    expect(servedBy().slice(before)).toEqual(["emit"]);
  });
});

describe("control: a genuine daemon of the same hook set decides", () => {
  it("hookbox serve on the default socket, started as the person would: every agent's event is answered by it", async () => {
    const daemon = await DaemonProcess.start([BUILT_BINARY], world, [], {}, { defaultHooks: true });
    running.push(daemon);
    for (const agent of Object.keys(AGENTS) as Agent[]) {
      const before = servedBy().length;
      const out = await emit(agent);
      expect(denied(agent, out), agent).toMatch(/guard-secrets/);
      expect(out.stderr, agent).not.toMatch(/not using|not through the daemon/);
      expect(servedBy().slice(before), agent).toEqual(["daemon"]);
    }
    const doctor = await runProgram([BUILT_BINARY, "doctor"], { cwd: ws, env: world.env() });
    expect(doctor.stdout + doctor.stderr).not.toMatch(/NOT A VERIFIED/);
  });
});
