// Claude Code's newer events in the real CLI (2.1.330, offline, mock model): `install-agent claude
// --events PostToolBatch` writes the entry, Claude runs it after the model's batch of tool calls,
// the hook sees the event as claude.post_tool_batch, and what it answers reaches the model: its
// context in the next request (hookSpecificOutput.additionalContext), its no as the reason Claude
// stops the turn with (decision "block"). The hook lives in the user's hook directory (the
// operator's tier, which may inject context).
import { describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram } from "../../helpers/binary.ts";
import { findClaudeBinary, runClaudeIn } from "./claude-code.ts";
import { clientSuite, expectFinished } from "./client-suite.ts";
import type { HookInstaller } from "./hookbox-setup.ts";
import { requestText, useTool } from "./mock-anthropic.ts";

const CALL_ID = "toolu_01HOOKBOXPOSTTOOLBATCH01";
const NOTE = "BATCH_NOTE_7731";

const batchHook = (answer: string) => `id: batch-note
events: [claude.post_tool_batch]
permissions: { inject_context: true }
handler:
  code: |
    export default (event) => (${answer});
`;

const suite = clientSuite("claude", [], findClaudeBinary);

/** `hookbox install-agent claude --project --events PostToolBatch`, run as a user would in the project. */
const installPostToolBatch: HookInstaller = async (ws) => {
  const run = await runProgram([BUILT_BINARY, "install-agent", "claude", "--project", "--events", "PostToolBatch"], {
    cwd: ws.project,
    env: ws.baseEnv(),
  });
  if (run.code !== 0) throw new Error(`hookbox install-agent claude failed (exit ${run.code}): ${run.stderr}`);
};

async function runWith(ctx: Parameters<typeof suite.require>[0], answer: string) {
  const binary = suite.require(ctx);
  const ws = await suite.workspace(false);
  ws.write("home", { ".config/hookbox/hooks/batch-note/hook.yaml": batchHook(answer) });
  const result = await runClaudeIn(binary, ws, {
    prompt: "list the files",
    install: installPostToolBatch,
    timeoutMs: 90_000,
    model: { script: [useTool("Bash", { command: "echo listed", description: "list" }, CALL_ID)] },
  });
  expectFinished(result, "claude -p");
  return result;
}

describe("Claude Code's PostToolBatch, installed by install-agent and answered by a Hookbox hook", () => {
  it("the hook's context reaches the model in its next request", async (ctx) => {
    const result = await runWith(ctx, `{ context_injection: "${NOTE} " + event.event_type }`);
    const after = result.model.turns().slice(1).map(requestText).join("\n");
    expect(after).toContain(`${NOTE} claude.post_tool_batch`);
  });
});

describe("a deny at Claude Code's PostToolBatch", () => {
  it('stops the turn with the hook\'s reason (decision "block"): the model is not asked again after the batch', async (ctx) => {
    const result = await runWith(ctx, `{ action: "deny", reason: "BATCH_STOP_5120 " + event.event_type }`);
    expect(result.model.turns(), "the model was asked again after the batch").toHaveLength(1);
    expect(result.stdout).toContain("BATCH_STOP_5120 claude.post_tool_batch");
  });
});
