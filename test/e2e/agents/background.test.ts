// A background hook in the real Claude Code, through a daemon (only a daemon runs hooks after the
// answer): the operator grants it (hooks.<id>.background), it runs for ~3 s after the model's first
// Bash call without holding that PostToolUse, and its context reaches the model with the session's
// next event after it ended (the second call's PreToolUse or PostToolUse), and not before.
import { describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../../helpers/binary.ts";
import { findClaudeBinary, runClaudeIn } from "./claude-code.ts";
import { clientSuite, expectFinished } from "./client-suite.ts";
import { auditRecords, installAgent, startDaemon } from "./hookbox-setup.ts";
import { requestText, say, useTool } from "./mock-anthropic.ts";

const MARK = "BACKGROUND-REVIEW-7f3a";
const HOOK = `id: slow-review
events: [PostToolUse]
match: { tool: Bash }
background: true
limits: { timeout_ms: 20000 }
permissions: { inject_context: true, run: [{ cmd: sleep, args: ["*"] }] }
handler:
  code: |
    export default async (event, hook) => {
      if (!String(event.tool_input?.command).startsWith("echo one")) return {};
      await hook.run("sleep", ["3"]);
      return { context_injection: "${MARK}: the first command's output was reviewed" };
    };
`;

interface Entry {
  kind?: string;
  hook_id?: string;
  event_type?: string;
  trigger?: string;
  status?: string;
  reason?: string;
  started_at?: string;
  completed_at?: string;
  duration_ms?: number;
  delivered_runs?: { hook_id: string; trigger: string }[];
}

const suite = clientSuite("claude", [], findClaudeBinary);

describe("a background hook in the real Claude Code", () => {
  it("does not hold the event that started it, and its result reaches the model at the session's next event after it ended", async (ctx) => {
    const binary = suite.require(ctx);
    const ws = await suite.workspace(false);
    ws.write("home", {
      ".config/hookbox/hooks/slow-review/hook.yaml": HOOK,
      ".config/hookbox/hookbox.yaml":
        "builtin: [guard-secrets, bash-guard]\ndaemon: { auto_start: false }\nhooks:\n  slow-review: { background: true }\n",
    });
    const daemon = await startDaemon(ws, BUILT_BINARY);
    try {
      const result = await runClaudeIn(binary, ws, {
        prompt: "run two commands",
        install: installAgent("claude", BUILT_BINARY),
        timeoutMs: 120_000,
        model: {
          script: [
            useTool("Bash", { command: "echo one", description: "first" }, "toolu_01HOOKBOXBACKGROUND00001"),
            useTool("Bash", { command: "sleep 5 && echo two", description: "second" }, "toolu_01HOOKBOXBACKGROUND00002"),
            say("done"),
          ],
        },
      });
      expectFinished(result, "claude -p");
      const turns = result.model.turns().map(requestText);
      // Turn 2 answers the first call (its PostToolUse started the run): nothing yet. Turn 3 follows the second call's PostToolUse.
      expect(turns[1]).not.toContain(MARK);
      expect(turns.at(-1)).toContain(MARK);

      const records = auditRecords(ws) as Entry[];
      const run = records.find((entry) => entry.hook_id === "slow-review" && entry.trigger === "background" && entry.status === "completed");
      expect(run, JSON.stringify(records.filter((entry) => entry.hook_id === "slow-review"))).toBeDefined();
      expect(run?.duration_ms).toBeGreaterThanOrEqual(3000);
      const decisions = records.filter((entry) => entry.kind === "decision");
      const started = decisions.find((entry) => entry.event_type === "PostToolUse");
      // The PostToolUse that started it was answered before the run ended: it was never held.
      expect(Date.parse(started?.completed_at as string)).toBeLessThan(Date.parse(run?.completed_at as string) - 2000);
      expect(records.find((entry) => entry.hook_id === "slow-review" && entry.trigger !== "background")?.reason).toMatch(
        /^background: runs after this answer/,
      );
      // Delivered once, by the session's first event after the run ended.
      const carriers = decisions.filter((entry) =>
        entry.delivered_runs?.some((item) => item.hook_id === "slow-review" && item.trigger === "background"),
      );
      expect(carriers, JSON.stringify(decisions.map((d) => [d.event_type, d.delivered_runs, d.completed_at]))).toHaveLength(1);
      const carrier = carriers[0] as Entry;
      expect(Date.parse(carrier.completed_at as string)).toBeGreaterThanOrEqual(Date.parse(run?.completed_at as string));
    } finally {
      await daemon.stop();
    }
  });
});
