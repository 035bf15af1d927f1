// hookbox replay over real sessions: each real CLI (offline, its mock model) works in a project
// with Hookbox's entries installed and the standard guards on — a .env written, `rm -rf *` and a
// force-push to main run, an ordinary file written — so its own history records the calls and
// Hookbox's audit log records what the guards decided live, through `hookbox emit`. Then
// `hookbox replay`, reading that history where the agent keeps it, must list exactly the calls
// the guards blocked live, and no other; append a torn line and an unknown entry to the history
// and it reports them at file:line and replays the rest; --compare with a stricter guard lists
// only what the stricter guard adds. Each agent is skipped, saying why, when its CLI is missing.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram } from "../../helpers/binary.ts";
import { findClaudeBinary, runClaudeIn } from "./claude-code.ts";
import { clientSuite, expectFinished } from "./client-suite.ts";
import { runCodex } from "./codex-cli.ts";
import { runCopilot } from "./copilot-cli.ts";
import { findGeminiCli, runGeminiIn } from "./gemini-cli.ts";
import { auditRecords, installAgent, type AuditRecord } from "./hookbox-setup.ts";
import { useTool as claudeTool } from "./mock-anthropic.ts";
import { useTool as geminiTool } from "./mock-gemini.ts";
import { CUSTOM_INPUT, useTool as openaiTool } from "./mock-openai.ts";
import { runQwen } from "./qwen-code.ts";
import type { AgentWorkspace } from "./workspace.ts";

interface ReplayReport {
  hook_set: string;
  sources: { sessions: Record<string, number> };
  decisions: {
    hook_id: string;
    decision: string;
    event_type: string;
    tool: string | null;
    input: string;
    session: string;
    file: string;
    line: number;
    blocked_live: boolean;
  }[];
  history_problems: { file: string; line: number; problem: string }[];
}

const ENV_LINE = "API_KEY=leaked";
const WIPE = "rm -rf *";
const FORCE_PUSH = "git push --force origin main";

/** Each agent's run: its script of tool calls (a .env write, the two commands, an ordinary write), and the file its history is in. */
interface AgentCase {
  readonly name: "claude" | "codex" | "gemini" | "qwen" | "copilot";
  readonly suite: ReturnType<typeof clientSuite>;
  run(binary: string, ws: AgentWorkspace): Promise<void>;
}

const geminiSuite = clientSuite("gemini", [], () => {
  const entry = findGeminiCli();
  return entry.ok ? { ok: true, path: entry.args[0] as string, version: entry.version } : entry;
});

const CASES: readonly AgentCase[] = [
  {
    name: "claude",
    suite: clientSuite("claude", [], () => findClaudeBinary()),
    async run(binary, ws) {
      const result = await runClaudeIn(binary, ws, {
        prompt: "tidy up",
        install: installAgent("claude", BUILT_BINARY),
        timeoutMs: 120_000,
        model: {
          script: [
            claudeTool("Write", { file_path: join(ws.project, ".env"), content: `${ENV_LINE}\n` }, "toolu_01REPLAYENV0000000000001"),
            claudeTool("Bash", { command: WIPE }, "toolu_01REPLAYWIPE000000000001"),
            claudeTool("Bash", { command: FORCE_PUSH }, "toolu_01REPLAYPUSH000000000001"),
            claudeTool("Write", { file_path: join(ws.project, "notes.md"), content: "ok\n" }, "toolu_01REPLAYNOTE000000000001"),
          ],
        },
      });
      expectFinished(result, "claude -p");
    },
  },
  {
    name: "codex",
    suite: clientSuite("codex"),
    async run(binary, ws) {
      const result = await runCodex(binary, ws, {
        prompt: "tidy up",
        install: installAgent("codex", BUILT_BINARY),
        model: {
          script: [
            openaiTool("exec_command", { cmd: `echo ${ENV_LINE} > .env` }, "call_env"),
            openaiTool("exec_command", { cmd: WIPE }, "call_wipe"),
            openaiTool("exec_command", { cmd: FORCE_PUSH }, "call_push"),
            openaiTool("apply_patch", { [CUSTOM_INPUT]: "*** Begin Patch\n*** Add File: notes.md\n+ok\n*** End Patch\n" }, "call_note"),
          ],
        },
      });
      expectFinished(result, "codex exec");
    },
  },
  {
    name: "gemini",
    suite: geminiSuite,
    async run(bundle, ws) {
      const result = await runGeminiIn({ ok: true, command: process.execPath, args: [bundle], version: "" }, ws, {
        prompt: "tidy up",
        install: installAgent("gemini", BUILT_BINARY),
        timeoutMs: 120_000,
        model: {
          script: [
            // Gemini CLI 0.61.0 refuses write_file on a .env itself ("Path not in workspace"), before any hook: the shell writes it.
            geminiTool("run_shell_command", { command: `echo ${ENV_LINE} > .env` }),
            geminiTool("run_shell_command", { command: WIPE }),
            geminiTool("run_shell_command", { command: FORCE_PUSH }),
            geminiTool("write_file", { file_path: join(ws.project, "notes.md"), content: "ok\n" }),
          ],
        },
      });
      expectFinished(result, "gemini -p");
    },
  },
  {
    name: "qwen",
    suite: clientSuite("qwen"),
    async run(binary, ws) {
      const result = await runQwen(binary, ws, {
        prompt: "tidy up",
        install: installAgent("qwen", BUILT_BINARY),
        model: {
          script: [
            openaiTool("write_file", { file_path: join(ws.project, ".env"), content: `${ENV_LINE}\n` }, "call_env"),
            openaiTool("run_shell_command", { command: WIPE }, "call_wipe"),
            openaiTool("run_shell_command", { command: FORCE_PUSH }, "call_push"),
            openaiTool("write_file", { file_path: join(ws.project, "notes.md"), content: "ok\n" }, "call_note"),
          ],
        },
      });
      expectFinished(result, "qwen -p");
    },
  },
  {
    name: "copilot",
    suite: clientSuite("copilot"),
    async run(binary, ws) {
      const result = await runCopilot(binary, ws, {
        prompt: "tidy up",
        install: installAgent("copilot", BUILT_BINARY),
        model: {
          script: [
            openaiTool("bash", { command: `echo ${ENV_LINE} > .env`, description: "env" }, "call_env"),
            openaiTool("bash", { command: WIPE, description: "wipe" }, "call_wipe"),
            openaiTool("bash", { command: FORCE_PUSH, description: "push" }, "call_push"),
            openaiTool("apply_patch", { [CUSTOM_INPUT]: "*** Begin Patch\n*** Add File: notes.md\n+ok\n*** End Patch\n" }, "call_note"),
          ],
        },
      });
      expectFinished(result, "copilot -p");
    },
  },
];

/** `hookbox replay` in the workspace's project, with its HOME: the project's sessions, where the agent keeps them. */
async function replay(ws: AgentWorkspace, args: readonly string[] = []) {
  const run = await runProgram([BUILT_BINARY, "replay", "--json", ...args], { cwd: ws.project, env: ws.baseEnv(), timeoutMs: 180_000 });
  return { ...run, report: () => JSON.parse(run.stdout) as ReplayReport };
}

/** What the guards blocked live: the denied PreToolUse decisions in the audit log, as "hook: what". */
function liveBlocks(records: readonly AuditRecord[]): string[] {
  return records
    .filter((r) => r.kind === "decision" && r.event_type === "PreToolUse" && r.decision === "deny")
    .map((r) => `${String(r.decided_by)}: ${String(r.subject)}`)
    .sort();
}

function replayedBlocks(report: ReplayReport): string[] {
  return report.decisions
    .filter((d) => d.event_type === "PreToolUse" && d.decision === "deny")
    .map((d) => `${d.hook_id}: ${d.input}`)
    .sort();
}

describe.each(CASES)("hookbox replay over a real $name session", (agent) => {
  it("lists exactly the calls guard-secrets and bash-guard blocked live through emit, and nothing the session was allowed", async (ctx) => {
    const binary = agent.suite.require(ctx);
    const ws = await agent.suite.workspace(false);
    writeFileSync(join(ws.project, "keep.txt"), "the wipe must not reach this\n");
    await agent.run(binary, ws);
    // Live: the guards held (nothing written or wiped), and the audit log says who blocked what.
    expect(existsSync(join(ws.project, ".env")), "the .env was written").toBe(false);
    expect(readFileSync(join(ws.project, "keep.txt"), "utf8")).toContain("must not reach");
    const records = auditRecords(ws);
    const live = liveBlocks(records);
    expect(live.map((block) => block.split(":")[0])).toEqual(expect.arrayContaining(["guard-secrets", "bash-guard"]));
    expect(live).toHaveLength(3);

    const run = await replay(ws);
    expect(run.code, run.stderr).toBe(0);
    const report = run.report();
    expect(report.sources.sessions).toEqual({ [agent.name]: 1 });
    // Exactly what was blocked live, by the same guards, and each was blocked in the session too.
    expect(replayedBlocks(report)).toEqual(live);
    expect(report.decisions.filter((d) => d.event_type === "PreToolUse").every((d) => d.blocked_live)).toBe(true);
    expect(report.decisions.some((d) => d.input.includes("notes.md"))).toBe(false);
    expect(report.history_problems).toEqual([]);
    // The replay wrote nothing to the audit log.
    expect(auditRecords(ws)).toHaveLength(records.length);
  });
});

describe("hookbox replay over a real Claude Code session, damaged and compared", () => {
  const claude = CASES[0] as AgentCase;

  it("reports a torn line and an unknown entry at file:line, replays the rest; --compare with a stricter guard lists only what it adds", async (ctx) => {
    const binary = claude.suite.require(ctx);
    const ws = await claude.suite.workspace(false);
    await claude.run(binary, ws);
    const before = replayedBlocks((await replay(ws)).report());
    const dir = join(ws.home, ".claude/projects", ws.project.replace(/[^A-Za-z0-9]/g, "-"));
    const path = join(dir, readdirSync(dir).find((entry) => entry.endsWith(".jsonl")) as string);
    const lines = readFileSync(path, "utf8").split("\n").filter(Boolean).length;
    appendFileSync(
      path,
      `{"type":"hologram","sessionId":"x","cwd":"${ws.project}"}\n{"parentUuid":"a","type":"assistant","message":{"content":[{"type":"tool_u`,
    );
    const damaged = (await replay(ws)).report();
    expect(damaged.history_problems).toEqual([
      { file: path, line: lines + 1, problem: 'unknown entry (type "hologram"): skipped' },
      { file: path, line: lines + 2, problem: expect.stringMatching(/^truncated/) },
    ]);
    expect(replayedBlocks(damaged)).toEqual(before);

    const stricter = join(ws.root, "no-markdown");
    mkdirSync(stricter);
    writeFileSync(
      join(stricter, "hook.yaml"),
      `id: no-markdown\nevents: [PreToolUse]\nmatch: { tool: Write }\nhandler: { code: "export default (e) => /\\\\.md$/.test(e.tool_input.file_path) ? { action: 'deny', reason: 'no markdown here' } : {}" }\n`,
    );
    const compared = await runProgram([BUILT_BINARY, "replay", "--json", "--compare", "current", stricter], {
      cwd: ws.project,
      env: ws.baseEnv(),
      timeoutMs: 180_000,
    });
    expect(compared.code, compared.stderr).toBe(1);
    const comparison = JSON.parse(compared.stdout) as { differences: { change: string; tool: string; input: string; b: { by: string } }[] };
    expect(comparison.differences).toEqual([
      expect.objectContaining({
        change: "newly blocked",
        tool: "Write",
        input: join(ws.project, "notes.md"),
        b: expect.objectContaining({ by: "no-markdown" }),
      }),
    ]);
  });
});
