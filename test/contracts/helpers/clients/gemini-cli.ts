import type { HookProcessOutput } from "../../../../src/agents/protocols.ts";
import { asObject, noEffect, type Effect } from "./effect.ts";

/**
 * Gemini CLI 0.61.0's reading of an answer, from its bundle (node_modules/@google/gemini-cli):
 * hookRunner parses `stdout.trim() || stderr.trim()`, plain text by exit code
 * (convertPlainTextToHookOutput); DefaultHookOutput: decision "block"|"deny" blocks, "ask" asks,
 * continue:false stops; getAdditionalContext (HTML-escaped) on AfterTool, BeforeAgent and
 * SessionStart; BeforeToolHookOutput.getModifiedToolInput on BeforeTool.
 */
const CHECKS_DECISION: ReadonlySet<string> = new Set(["BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel"]);
const READS_CONTEXT: ReadonlySet<string> = new Set(["AfterTool", "BeforeAgent", "SessionStart"]);

export function geminiReads(output: HookProcessOutput, eventName: string): Effect {
  const effect = noEffect();
  const text = output.stdout.trim() || output.stderr.trim();
  if (text === "") return effect;
  let body: Record<string, unknown> | undefined;
  try {
    let parsed: unknown = JSON.parse(text);
    if (typeof parsed === "string") parsed = JSON.parse(parsed);
    body = asObject(parsed);
  } catch {
    if (output.exitCode === 0) body = { decision: "allow", systemMessage: text };
    else if (output.exitCode === 1) body = { decision: "allow", systemMessage: `Warning: ${text}` };
    else body = { decision: "deny", reason: text };
  }
  if (!body) return effect;
  const reason = String(body.stopReason || body.reason || "No reason provided");
  if (CHECKS_DECISION.has(eventName) && (body.decision === "block" || body.decision === "deny")) effect.blocked = reason;
  if (eventName === "BeforeTool" && body.decision === "ask") effect.asked = String(body.systemMessage ?? body.reason ?? "");
  if (body.continue === false) effect.halted = true;
  const hso = asObject(body.hookSpecificOutput) ?? {};
  if (eventName === "BeforeTool" && asObject(hso.tool_input)) effect.rewrite = hso.tool_input;
  if (READS_CONTEXT.has(eventName) && typeof hso.additionalContext === "string")
    effect.context = hso.additionalContext.replace(/</g, "&lt;").replace(/>/g, "&gt;");
  if (typeof body.systemMessage === "string") effect.userMessage = body.systemMessage;
  return effect;
}
