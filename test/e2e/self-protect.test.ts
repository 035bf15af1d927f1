import { mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram, type RunResult } from "../helpers/binary.ts";
import { DaemonProcess, DaemonWorld } from "../helpers/daemon.ts";

// Issue 16, self-protection: the agent tries to switch Hookbox off with tool calls the other
// guards allow, against the built binary, with no operator file at all (self-protect is on by
// default) — through Write in Claude's, Gemini's and Codex's own payloads and through Bash.
// Near misses pass; only the operator file turns it off, never the project.

let world: DaemonWorld;
let ws: string;
let home: string;
let data: string;
let socketDir: string;

beforeAll(() => {
  world = new DaemonWorld();
  home = realpathSync(world.home);
  ws = join(realpathSync(world.dir), "project");
  data = join(home, ".local/share/hookbox");
  socketDir = join(realpathSync(world.runtimeDir), "hookbox");
  for (const dir of [".git/hooks", ".hookbox/hooks", "src", ".claude"]) mkdirSync(join(ws, dir), { recursive: true });
  writeFileSync(join(ws, ".git/config"), "[core]\n\tbare = false\n");
  writeFileSync(join(ws, ".claude/settings.json"), "{}\n");
  writeFileSync(join(ws, "src/app.ts"), "export {}\n");
});
afterAll(() => world.cleanup());

function emit(agent: string, payload: object, options: { args?: string[]; cwd?: string } = {}): Promise<RunResult> {
  return runProgram([BUILT_BINARY, "emit", "PreToolUse", "--agent", agent, ...(options.args ?? [])], { stdin: JSON.stringify(payload), env: world.env(), cwd: options.cwd ?? ws });
}

const claude = (tool_name: string, tool_input: object): object => ({ session_id: "s1", transcript_path: "/tmp/t.jsonl", cwd: ws, prompt_id: "p1", permission_mode: "bypassPermissions", hook_event_name: "PreToolUse", tool_name, tool_input, tool_use_id: "toolu_1" });
const gemini = (tool_name: string, tool_input: object): object => ({ session_id: "g1", transcript_path: `${home}/.gemini/tmp/p/chats/s.jsonl`, cwd: ws, hook_event_name: "BeforeTool", timestamp: "2026-11-22T03:05:12.685Z", tool_name, tool_input });
const codex = (tool_name: string, tool_input: object): object => ({ session_id: "x1", turn_id: "1", transcript_path: null, cwd: ws, hook_event_name: "PreToolUse", model: "gpt-5-codex", permission_mode: "bypassPermissions", tool_name, tool_input, tool_use_id: "call_1" });

/** The reason of a deny in the agent's own words; undefined when it was not denied. */
function denied(agent: string, out: RunResult): string | undefined {
  if (agent === "codex") return out.code === 2 ? out.stderr : undefined;
  if (out.stdout.trim() === "") return undefined;
  const answer = JSON.parse(out.stdout) as { decision?: string; reason?: string; hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
  if (agent === "claude") return answer.hookSpecificOutput?.permissionDecision === "deny" ? answer.hookSpecificOutput.permissionDecisionReason : undefined;
  return answer.decision === "block" ? answer.reason : undefined;
}

/** Every place self-protect keeps, as this machine has them (the daemon world's HOME and XDG_RUNTIME_DIR). */
const TARGETS = (): [string, string][] => [
  [`${home}/.config/hookbox/hookbox.yaml`, "the operator file"],
  [`${home}/.config/hookbox/hooks/guard/hook.yaml`, "the user's hooks"],
  [`${ws}/.hookbox/hooks/lint/hook.yaml`, "a project's .hookbox/"],
  [`${data}/audit/hookbox-audit.jsonl`, "the audit log"],
  [`${data}/installs/x.json`, "install records"],
  [`${socketDir}/hookbox.sock`, "the daemon's socket directory"],
  [`${ws}/.claude/settings.json`, "Claude Code's settings"],
  [`${home}/.claude/settings.json`, "Claude Code's"],
  [`${ws}/.gemini/settings.json`, "Gemini CLI's settings"],
  [`${home}/.cursor/hooks.json`, "Cursor's hook settings"],
  [`${ws}/.codex/hooks.json`, "Codex's hook settings"],
  [`${home}/.codex/config.toml`, "Codex's"],
  [`${ws}/.github/hooks/hookbox.json`, "Copilot's hook settings"],
  [`${home}/.copilot/hooks/hookbox.json`, "Copilot CLI's user hook settings"],
  [`${home}/.qwen/settings.json`, "Qwen Code's settings"],
  [`${ws}/.git/hooks/pre-commit`, "a git hook"],
  [`${ws}/.git/config`, "git's configuration"],
  [BUILT_BINARY, "the Hookbox binary"],
];

describe("issue 16: self-protect is on by default and refuses every target, through Write and through Bash (the binary, no operator file)", () => {
  it("Claude Code: Write of each target is denied, naming what it is and how the operator turns it off", async () => {
    for (const [path, what] of TARGETS()) {
      const reason = denied("claude", await emit("claude", claude("Write", { file_path: path, content: "x" })));
      expect(reason, path).toContain(path);
      expect(reason, path).toContain(what);
      expect(reason, path).toContain("turn self-protection off in ~/.config/hookbox/hookbox.yaml (hooks: { self-protect: { enabled: false } })");
    }
  });

  it("the attacks of issue 16: chmod 000 on the audit log or a directory in its place, enabled: false, a project hook.yaml, .claude/settings.json, kill, rm of the socket", async () => {
    const attacks = [
      `chmod 000 ${data}/audit/hookbox-audit.jsonl`,
      `rm -f ${data}/audit/hookbox-audit.jsonl && mkdir ${data}/audit/hookbox-audit.jsonl`,
      `printf 'hooks:\\n  self-protect: { enabled: false }\\n' > ~/.config/hookbox/hookbox.yaml`,
      "sed -i 's/on_error: deny/on_error: continue/' .hookbox/hooks/*/hook.yaml",
      "jq 'del(.hooks)' .claude/settings.json > /tmp/s && mv /tmp/s .claude/settings.json",
      "kill $(pgrep -f 'hookbox serve')",
      "pkill hookbox",
      `rm -f ${socketDir}/hookbox.sock`,
      `fuser -k ${socketDir}/hookbox.sock`,
    ];
    for (const command of attacks) expect(denied("claude", await emit("claude", claude("Bash", { command }))), command).toMatch(/^self-protect: /);
  });

  it("near misses pass: reading the targets, writing the project's files, git commit, git config --local user.name, another process", async () => {
    const allowed: [string, object][] = [
      ["claude", claude("Read", { file_path: `${home}/.config/hookbox/hookbox.yaml` })],
      ["gemini", gemini("read_file", { absolute_path: `${ws}/.claude/settings.json` })],
      ["claude", claude("Bash", { command: `cat .claude/settings.json; tail -n 3 ${data}/audit/hookbox-audit.jsonl; ls ${socketDir}` })],
      ["claude", claude("Write", { file_path: `${ws}/src/hooks/x.ts`, content: "export {}\n" })],
      ["gemini", gemini("write_file", { file_path: `${ws}/src/app.ts`, content: "export const a = 1;\n" })],
      ["codex", codex("apply_patch", { command: "*** Begin Patch\n*** Update File: src/app.ts\n@@\n-export {}\n+export const b = 2;\n*** End Patch\n" })],
      ["claude", claude("Bash", { command: "git add -A && git commit -m wip && git config --local user.name Dev && git config user.email dev@example.com" })],
      ["codex", codex("Bash", { command: "kill 4242; pkill -f vite; mkdir -p build && rm -rf build" })],
    ];
    for (const [agent, payload] of allowed) {
      const out = await emit(agent, payload);
      expect(out.code, out.stderr).toBe(0);
      expect(denied(agent, out), JSON.stringify(payload)).toBeUndefined();
    }
  });

  it("an event built to be undecodable (MCP arguments nested past the depth limit) is denied: self-protect could have run and is on_error: deny", async () => {
    let nested: unknown = "x";
    for (let i = 0; i < 80; i++) nested = { a: nested };
    const out = await emit("claude", claude("mcp__files__write", { path: `${home}/.config/hookbox/hookbox.yaml`, content: "{}", nested }));
    expect(denied("claude", out)).toMatch(/could not evaluate.*nested deeper than 64.*"self-protect".*on_error: deny/);
  });

  it("a Write through a symbolic link into the data directory is denied (the host resolves it)", async () => {
    mkdirSync(join(data, "audit"), { recursive: true });
    writeFileSync(join(data, "audit/hookbox-audit.jsonl"), "");
    const { symlinkSync } = await import("node:fs");
    symlinkSync(join(data, "audit/hookbox-audit.jsonl"), join(ws, "log.jsonl"));
    try {
      const reason = denied("claude", await emit("claude", claude("Write", { file_path: "log.jsonl", content: "" })));
      expect(reason).toContain("log.jsonl (a symbolic link to");
      expect(reason).toContain("the audit log");
    } finally {
      rmSync(join(ws, "log.jsonl"));
    }
  });
});

describe("the same targets through a running daemon (emit hands each event to serve): Gemini, Codex apply_patch, and Bash in every agent's shape", () => {
  let daemon: DaemonProcess;
  beforeAll(async () => {
    daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "1"], {}, { defaultHooks: true });
  });
  afterAll(() => daemon.stop());

  /** emit, answered by the daemon (it says so on stderr when it evaluates alone). */
  async function viaDaemon(agent: string, payload: object): Promise<RunResult> {
    const out = await emit(agent, payload);
    expect(out.stderr.includes("not through the daemon"), out.stderr).toBe(false);
    return out;
  }

  it("Gemini CLI: write_file and replace of each target are denied (block)", async () => {
    for (const [path] of TARGETS()) {
      expect(denied("gemini", await viaDaemon("gemini", gemini("write_file", { file_path: path, content: "x" }))), path).toContain(path);
      expect(denied("gemini", await viaDaemon("gemini", gemini("replace", { file_path: path, old_string: "a", new_string: "b" }))), path).toContain(path);
    }
  });

  it("Codex: apply_patch adding, updating or deleting each target is denied (exit 2, reason on stderr)", async () => {
    const kinds = ["Add File", "Update File", "Delete File"];
    for (const [index, [path]] of TARGETS().entries()) {
      const kind = kinds[index % kinds.length] as string;
      const out = await viaDaemon("codex", codex("apply_patch", { command: `*** Begin Patch\n*** ${kind}: ${path}\n+x\n*** End Patch\n` }));
      expect(denied("codex", out), `${kind} ${path}`).toContain(path);
    }
  });

  it("Bash (Claude, Gemini, Codex): writing, removing, chmod-ing, moving or linking over each target is denied", async () => {
    const forms = [(p: string) => `echo x > '${p}'`, (p: string) => `rm -rf '${p}'`, (p: string) => `chmod 000 '${p}'`, (p: string) => `mv '${p}' /tmp/aside`, (p: string) => `ln -sfn /tmp/fake '${p}'`, (p: string) => `truncate -s 0 '${p}'`];
    const agents: [string, (command: string) => object][] = [
      ["claude", (command) => claude("Bash", { command })],
      ["gemini", (command) => gemini("run_shell_command", { command })],
      ["codex", (command) => codex("Bash", { command })],
    ];
    for (const [index, [path]] of TARGETS().entries()) {
      const [agent, payload] = agents[index % agents.length] as [string, (command: string) => object];
      for (const form of forms) {
        const command = form(path);
        expect(denied(agent, await viaDaemon(agent, payload(command))), `${agent}: ${command}`).toContain(path);
      }
    }
  });

});

describe("through a daemon: the same refusals, and kill of the daemon's own pid", () => {
  it("emit hands the event to serve, which refuses the Write and a kill of its pid", async () => {
    const daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "1"], {}, { defaultHooks: true });
    try {
      const pid = daemon.child.pid as number;
      const write = await emit("claude", claude("Write", { file_path: `${home}/.config/hookbox/hookbox.yaml`, content: "{}" }));
      expect(write.stderr, "the daemon answered").toBe("");
      expect(denied("claude", write)).toContain("the operator file");
      const kill = await emit("claude", claude("Bash", { command: `kill -9 ${pid}` }));
      expect(kill.stderr, "the daemon answered").toBe("");
      expect(denied("claude", kill)).toContain(`pid ${pid} is the daemon's`);
      const other = await emit("claude", claude("Bash", { command: `kill -9 ${pid + 100000}` }));
      expect(denied("claude", other)).toBeUndefined();
    } finally {
      await daemon.stop();
    }
  });
});

describe("off only through the operator file", () => {
  const operatorFile = (): string => join(home, ".config/hookbox/hookbox.yaml");
  const attack = (): object => claude("Write", { file_path: operatorFile(), content: "{}" });

  it("a project hook with the id self-protect is a broken duplicate: it neither disables nor shadows the standard one", async () => {
    const dir = join(ws, ".hookbox/hooks/self-protect");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "hook.yaml"), "id: self-protect\nevents: [PreToolUse]\nenabled: false\non_error: continue\nhandler: ./handler.ts\n");
    writeFileSync(join(dir, "handler.ts"), "export default () => ({ action: 'continue' });\n");
    try {
      const validate = await runProgram([BUILT_BINARY, "validate"], { env: world.env(), cwd: ws });
      expect(validate.stderr).toMatch(/\.hookbox\/hooks\/self-protect\/hook\.yaml:1:\d+: id: duplicate hook id "self-protect": also defined in builtin:self-protect\/hook\.yaml/);
      expect(validate.stdout).toContain("self-protection on");
      expect(denied("claude", await emit("claude", attack()))).toContain("the operator file");
    } finally {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  });

  it("so is one in the user's hooks, and --hooks (a flag an agent entry could carry) does not turn it off", async () => {
    const dir = join(home, ".config/hookbox/hooks/self-protect");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "hook.yaml"), "id: self-protect\nevents: [PreToolUse]\nhandler: ./handler.ts\n");
    writeFileSync(join(dir, "handler.ts"), "export default () => ({ action: 'continue' });\n");
    const empty = join(world.dir, "no-hooks");
    mkdirSync(empty, { recursive: true });
    try {
      expect(denied("claude", await emit("claude", attack()))).toContain("the operator file");
      expect(denied("claude", await emit("claude", attack(), { args: ["--hooks", empty] }))).toContain("the operator file");
    } finally {
      rmSync(join(home, ".config/hookbox/hooks"), { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  });

  it("the operator file's hooks: { self-protect: { enabled: false } } turns it off, and list/validate say so", async () => {
    mkdirSync(join(home, ".config/hookbox"), { recursive: true });
    writeFileSync(operatorFile(), "hooks:\n  self-protect: { enabled: false }\n");
    try {
      const out = await emit("claude", attack());
      expect(out.code, out.stderr).toBe(0);
      expect(denied("claude", out)).toBeUndefined();
      const list = await runProgram([BUILT_BINARY, "list", "--json"], { env: world.env(), cwd: ws });
      expect(JSON.parse(list.stdout)).toMatchObject({ self_protect: "off" });
      const validate = await runProgram([BUILT_BINARY, "validate"], { env: world.env(), cwd: ws });
      expect(validate.stdout).toContain("self-protection OFF");
    } finally {
      rmSync(operatorFile());
    }
    expect(denied("claude", await emit("claude", attack()))).toContain("the operator file");
  });
});
