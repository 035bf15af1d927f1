// An output rewrite in the real Claude Code (PostToolUse's updatedToolOutput): the model asks for a
// command that prints a token, a hook returns the tool's output with the token redacted. Granted by
// the operator (the hook in the user's hook directory: the operator's own tier), the model's
// tool_result holds the redacted text and never the token; the same hook in the project (not the
// operator's) is refused, the model sees the original output, and the run record says why.
// Evaluated in emit's own process, with the entries `install-agent claude` writes.
import { describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../../helpers/binary.ts";
import { findClaudeBinary, runClaudeIn } from "./claude-code.ts";
import { clientSuite, expectFinished } from "./client-suite.ts";
import { auditRecords, installAgent } from "./hookbox-setup.ts";
import { toolResultText, useTool } from "./mock-anthropic.ts";

const TOKEN = "tok_live_51HxQ9sEcReT";
const COMMAND = `echo "deploy key: ${TOKEN}"`;
const CALL_ID = "toolu_01HOOKBOXOUTPUTREWRITE001";

const REDACT_HOOK = `id: redact-output
events: [PostToolUse]
match: { tool: Bash }
permissions: { modify: [tool_response] }
handler:
  code: |
    export default (event) => {
      const out = event.tool_response;
      if (!out || typeof out.stdout !== "string" || !out.stdout.includes("tok_live_")) return {};
      return { tool_response: { ...out, stdout: out.stdout.replace(/tok_live_[A-Za-z0-9]+/g, "[REDACTED]") } };
    };
`;

const suite = clientSuite("claude", [], findClaudeBinary);

async function run(ctx: Parameters<typeof suite.require>[0], where: "home" | "project") {
  const binary = suite.require(ctx);
  const ws = await suite.workspace(false);
  ws.write(where, { [where === "home" ? ".config/hookbox/hooks/redact-output/hook.yaml" : ".hookbox/hooks/redact-output/hook.yaml"]: REDACT_HOOK });
  const result = await runClaudeIn(binary, ws, {
    prompt: "print the deploy key",
    install: installAgent("claude", BUILT_BINARY),
    timeoutMs: 90_000,
    model: { script: [useTool("Bash", { command: COMMAND, description: "print" }, CALL_ID)] },
  });
  expectFinished(result, "claude -p");
  const seen = result.model.resultOf(CALL_ID);
  expect(seen, "the model got the tool's result").toBeDefined();
  const record = auditRecords(ws).find((entry) => entry.hook_id === "redact-output" && entry.event_type === "PostToolUse");
  return { text: toolResultText((seen as NonNullable<typeof seen>).result), record: JSON.stringify(record) };
}

describe("an output rewrite in the real Claude Code", () => {
  it("granted by the operator: the model sees the rewritten output (updatedToolOutput), never the original", async (ctx) => {
    const { text, record } = await run(ctx, "home");
    expect(text).toContain("deploy key: [REDACTED]");
    expect(text).not.toContain(TOKEN);
    expect(record).toContain("output rewritten (tool_response)");
  });

  it("not granted (a project's hook): refused with the reason, and the model sees the tool's own output", async (ctx) => {
    const { text, record } = await run(ctx, "project");
    expect(text).toContain(TOKEN);
    expect(record).toMatch(/output rewrite refused \(the model sees the tool's own output\): tool_response: rewrites are the operator's to allow/);
  });
});
