import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram, type RunResult } from "../helpers/binary.ts";
import { DaemonWorld } from "../helpers/daemon.ts";

/**
 * The operator's escalation, through the built binary as Claude Code runs it (`hookbox emit`, one
 * process per event, no daemon: the denials are counted in the data directory, across processes):
 * after `after_denials` denied tool calls in a session, the next tool call of that session is
 * denied, asked or slowed, the answer says why, and so does its decision record. Another session
 * is not affected.
 */

const GUARD = `id: no-rm
events: [PreToolUse]
handler: { code: "export default (e) => /rm -rf/.test(String(e.tool_input?.command)) ? { action: 'deny', reason: 'no-rm: no recursive deletes' } : {}" }
`;

interface Entry {
  kind?: string;
  decision?: string;
  reason?: string;
  session_id?: string;
  escalation?: { denials: number; after_denials: number; answer: string };
  runs?: number;
}

const worlds: DaemonWorld[] = [];
afterAll(() => worlds.forEach((world) => world.cleanup()));

function setUp(escalation: string): { emit: (session: string, command: string) => Promise<RunResult>; decisions: () => Entry[] } {
  const world = new DaemonWorld();
  worlds.push(world);
  const config = join(world.home, ".config", "hookbox");
  mkdirSync(join(config, "hooks", "no-rm"), { recursive: true });
  writeFileSync(join(config, "hookbox.yaml"), `daemon: { auto_start: false }\nescalation: ${escalation}\n`);
  writeFileSync(join(config, "hooks", "no-rm", "hook.yaml"), GUARD);
  const project = join(world.dir, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  return {
    emit: (session, command) =>
      runProgram([BUILT_BINARY, "emit", "PreToolUse", "--agent", "claude"], {
        cwd: project,
        env: world.env(),
        stdin: JSON.stringify({ session_id: session, cwd: project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } }),
      }),
    decisions: () =>
      readFileSync(world.auditFile, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Entry)
        .filter((entry) => entry.kind === "decision"),
  };
}

const verdictOf = (out: RunResult): string | undefined =>
  (JSON.parse(out.stdout || "{}") as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision;

/** Two denied tool calls in session s1, each through its own emit process. */
async function twoDenials(emit: (session: string, command: string) => Promise<RunResult>): Promise<void> {
  expect(verdictOf(await emit("s1", "ls"))).toBeUndefined();
  expect(verdictOf(await emit("s1", "rm -rf build"))).toBe("deny");
  expect(verdictOf(await emit("s1", "rm -rf dist"))).toBe("deny");
}

describe("escalation (the operator file's escalation)", () => {
  it("deny: after 2 denials, the session's next tool call is refused without running a hook; another session goes on", async () => {
    const { emit, decisions } = setUp("{ after_denials: 2, answer: deny }");
    await twoDenials(emit);
    const out = await emit("s1", "ls");
    expect(verdictOf(out)).toBe("deny");
    expect(out.stdout).toContain("Hookbox escalation: 2 denied events in this session (the operator's escalation.after_denials is 2)");
    const record = decisions().at(-1) as Entry;
    expect(record).toMatchObject({ decision: "deny", session_id: "s1", escalation: { denials: 2, after_denials: 2, answer: "deny" }, runs: 0 });
    expect(verdictOf(await emit("s2", "ls"))).toBeUndefined();
    expect(decisions().at(-1)?.escalation).toBeUndefined();
  });

  it("ask: what the hooks allow becomes the agent's own ask, saying why; a deny of theirs stands", async () => {
    const { emit, decisions } = setUp("{ after_denials: 2, answer: ask }");
    await twoDenials(emit);
    const out = await emit("s1", "ls");
    expect(verdictOf(out)).toBe("ask");
    expect(out.stdout).toContain("every tool call of this session needs the user's approval");
    expect(decisions().at(-1)).toMatchObject({ decision: "ask", escalation: { answer: "ask", denials: 2 } });
    expect(verdictOf(await emit("s1", "rm -rf again"))).toBe("deny");
  });

  it("slow: the session's next tool call waits slow_ms before it is evaluated, then is answered as the hooks say, with a warning", async () => {
    const { emit, decisions } = setUp("{ after_denials: 2, answer: slow, slow_ms: 1500 }");
    await twoDenials(emit);
    const started = Date.now();
    const out = await emit("s1", "ls");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    expect(verdictOf(out)).toBeUndefined();
    expect(out.stdout).toContain("is slowed down");
    expect(decisions().at(-1)).toMatchObject({ decision: "allow", escalation: { answer: "slow" } });
  });
});
