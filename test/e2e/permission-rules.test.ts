import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram, type RunResult } from "../helpers/binary.ts";
import { DaemonProcess, DaemonWorld } from "../helpers/daemon.ts";

/**
 * `match.if` through the built binary, as a user sets it up: a hook in the user's hooks directory
 * selected by `Bash(git commit:*)`, the agents running `hookbox emit` from the project with their
 * own payloads (Claude Code's Bash, Gemini CLI's and Qwen Code's run_shell_command, Cursor's
 * beforeShellExecution, Copilot CLI's bash, Codex's argv) — in-process and through a running daemon's socket. The hook runs on every
 * spelling of a commit, compound lines included, and not on the near misses.
 */
let root: string;
let ws: string;
let world: DaemonWorld;

const HOOK = `id: commit-guard
events: [PreToolUse]
match:
  if: "Bash(git commit:*)"
handler:
  code: |
    export default () => ({ action: "deny", reason: "commits go through review (commit-guard)" });
`;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "hookbox-rules-")));
  ws = join(root, "project");
  mkdirSync(ws, { recursive: true });
  world = new DaemonWorld().withoutAutoStart();
  const dir = join(world.home, ".config", "hookbox", "hooks", "commit-guard");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "hook.yaml"), HOOK);
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  world.cleanup();
});

function emit(agent: string, event: string, payload: object): Promise<RunResult> {
  return runProgram([BUILT_BINARY, "emit", event, "--agent", agent], { stdin: JSON.stringify(payload), env: world.env(), cwd: ws });
}

const PAYLOADS: Record<string, (command: string) => [event: string, payload: object]> = {
  claude: (command) => [
    "PreToolUse",
    {
      session_id: "s1",
      transcript_path: "/tmp/t.jsonl",
      cwd: ws,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command },
      tool_use_id: "t1",
    },
  ],
  gemini: (command) => [
    "BeforeTool",
    {
      session_id: "s1",
      transcript_path: "/tmp/t.json",
      cwd: ws,
      hook_event_name: "BeforeTool",
      timestamp: "2026-11-27T00:00:00.000Z",
      tool_name: "run_shell_command",
      tool_input: { command },
    },
  ],
  cursor: (command) => [
    "beforeShellExecution",
    {
      conversation_id: "c1",
      generation_id: "g1",
      cursor_version: "2.0.77",
      workspace_roots: [ws],
      hook_event_name: "beforeShellExecution",
      command,
      cwd: ws,
    },
  ],
  copilot: (command) => [
    "preToolUse",
    { sessionId: "s1", timestamp: 1795518682981, cwd: ws, toolName: "bash", toolArgs: { command, description: "d" } },
  ],
  qwen: (command) => [
    "PreToolUse",
    {
      session_id: "s1",
      transcript_path: "/tmp/q.jsonl",
      cwd: ws,
      hook_event_name: "PreToolUse",
      tool_name: "run_shell_command",
      tool_input: { command },
    },
  ],
  codex: (command) => [
    "PreToolUse",
    {
      session_id: "s1",
      turn_id: "1",
      transcript_path: null,
      cwd: ws,
      hook_event_name: "PreToolUse",
      model: "gpt-5-codex",
      permission_mode: "default",
      tool_name: "Bash",
      tool_input: { command: ["bash", "-lc", command] },
      tool_use_id: "call_1",
    },
  ],
};

/** Whether the agent was told no, in its own words. */
function denied(agent: string, out: RunResult): boolean {
  if (out.code === 2) return true;
  if (out.stdout.trim() === "") return false;
  const answer = JSON.parse(out.stdout) as Record<string, unknown>;
  const specific = answer.hookSpecificOutput as Record<string, unknown> | undefined;
  if (agent === "cursor") return answer.permission === "deny";
  return specific?.permissionDecision === "deny" || answer.permissionDecision === "deny" || answer.decision === "deny" || answer.decision === "block";
}

const LINES: [command: string, selected: boolean][] = [
  ["git commit -m wip", true],
  ["npm test && git  commit -am wip", true],
  ["command git commit -m x", true],
  ["/usr/bin/git commit -m x", true],
  ["'git' \"commit\" -m x", true],
  ["bash -c 'git commit -m x'", true],
  ["git commit-tree HEAD^{tree} -m x", false],
  ["git status", false],
  ["echo git commit", false],
];

describe("match.if through dist/hookbox emit, every agent's dialect", () => {
  it.each(Object.keys(PAYLOADS).flatMap((agent) => LINES.map(([command, selected]) => [agent, command, selected] as const)))(
    "%s: %j → %s",
    async (agent, command, selected) => {
      const [event, payload] = (PAYLOADS[agent] as (c: string) => [string, object])(command);
      const out = await emit(agent, event, payload);
      // Codex reads a block as exit 2 with the reason on stderr; every other answer here is stdout alone.
      if (!(agent === "codex" && selected)) expect(out.stderr).toBe("");
      expect(denied(agent, out), out.stdout).toBe(selected);
      if (selected) expect(out.stdout + out.stderr).toContain("commit-guard");
    },
  );

  it("a running daemon answers the same over its socket", async () => {
    const daemon = await DaemonProcess.start([BUILT_BINARY], world, [], {}, { defaultHooks: true });
    try {
      for (const [command, selected] of LINES.slice(0, 2).concat(LINES.slice(-3))) {
        const [event, payload] = (PAYLOADS.claude as (c: string) => [string, object])(command);
        const out = await emit("claude", event, payload);
        expect(out.stderr, "the daemon answered").toBe("");
        expect(denied("claude", out), command).toBe(selected);
      }
    } finally {
      await daemon.stop();
    }
  });

  it("hookbox validate names a rule it cannot read, with its position", async () => {
    const dir = join(root, "bad");
    mkdirSync(join(dir, "bad-rule"), { recursive: true });
    writeFileSync(
      join(dir, "bad-rule", "hook.yaml"),
      HOOK.replace("commit-guard", "bad-rule").replace('"Bash(git commit:*)"', '"WebFetch(example.com)"'),
    );
    const out = await runProgram([BUILT_BINARY, "validate", "--hooks", dir], { env: world.env(), cwd: ws });
    expect(out.code).not.toBe(0);
    expect(out.stdout + out.stderr).toMatch(/hook\.yaml:4:\d+: match\.if: WebFetch\(example\.com\): WebFetch takes domain:HOST/);
  });
});
