import type { HookProcessOutput } from "../../../../src/agents/protocols.ts";
import { asObject, noEffect, type Effect } from "./effect.ts";

/**
 * Qwen Code 0.24.4's reading of an answer, from its bundle (@qwen-code/qwen-code chunks:
 * packages/core/src/hooks/hookRunner.ts, types.ts, and the callers in the tool scheduler and
 * client). The runner parses stdout (stderr on exit 2) as JSON, a JSON string holding JSON too;
 * plain text by exit code. PreToolUseHookOutput.getPermissionDecision: hookSpecificOutput
 * permissionDecision first, else decision allow|approve|deny|block|ask; its reason
 * permissionDecisionReason, else reason. Other events block on decision "block"|"deny"; Stop
 * also takes continue:false as "go on"; PostToolUse reads no decision at all. No event applies
 * a rewritten tool input except PermissionRequest (decision.updatedInput).
 */
const BLOCKS_ON_DECISION: ReadonlySet<string> = new Set(["UserPromptSubmit", "UserPromptExpansion", "Stop", "SubagentStop", "PostToolBatch"]);
const READS_CONTEXT: ReadonlySet<string> = new Set([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PostToolBatch",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "SessionStart",
  "Notification",
]);
const PLAIN_TEXT_CONTEXT: ReadonlySet<string> = new Set(["SessionStart", "UserPromptSubmit", "UserPromptExpansion"]);
const STOPS: ReadonlySet<string> = new Set(["Stop", "SubagentStop"]);

function parse(output: HookProcessOutput, eventName: string): Record<string, unknown> | undefined {
  const stdout = output.stdout.trim();
  const text = output.exitCode === 2 ? output.stderr.trim() : stdout || output.stderr.trim();
  if (text === "") return undefined;
  try {
    let parsed: unknown = JSON.parse(text);
    if (typeof parsed === "string") parsed = JSON.parse(parsed);
    return asObject(parsed);
  } catch {
    if (output.exitCode === 0)
      return PLAIN_TEXT_CONTEXT.has(eventName) && stdout !== "" ? { hookSpecificOutput: { additionalContext: text } } : { systemMessage: text };
    if (output.exitCode === 2) return { decision: "deny", reason: text };
    return { systemMessage: `Warning: ${text}` };
  }
}

function permissionDecision(body: Record<string, unknown>, hso: Record<string, unknown>): string | undefined {
  if (["allow", "deny", "ask"].includes(String(hso.permissionDecision))) return String(hso.permissionDecision);
  if (body.decision === "allow" || body.decision === "approve") return "allow";
  if (body.decision === "deny" || body.decision === "block") return "deny";
  return body.decision === "ask" ? "ask" : undefined;
}

export function qwenReads(output: HookProcessOutput, eventName: string): Effect {
  const effect = noEffect();
  const body = parse(output, eventName);
  if (!body) return effect;
  const hso = asObject(body.hookSpecificOutput) ?? {};
  const effectiveReason = String(body.stopReason || body.reason || "No reason provided");
  if (eventName === "PreToolUse") {
    const decision = permissionDecision(body, hso);
    const reason = typeof hso.permissionDecisionReason === "string" ? hso.permissionDecisionReason : body.reason;
    if (decision === "deny") effect.blocked = String(reason || effectiveReason);
    else if (decision === "ask") effect.asked = String(reason || "User confirmation required");
    else if (body.continue === false) effect.blocked = effectiveReason;
    if (decision === "allow") effect.approved = true;
  } else if (eventName === "PermissionRequest") {
    const decision = asObject(hso.decision);
    if (decision?.behavior === "deny") effect.blocked = String(decision.message ?? "");
    if (decision?.behavior === "allow") effect.approved = true;
    if (decision?.updatedInput !== undefined) effect.rewrite = decision.updatedInput;
    if (decision?.interrupt === true) effect.halted = true;
  } else if (
    BLOCKS_ON_DECISION.has(eventName) &&
    (body.decision === "block" || body.decision === "deny" || (STOPS.has(eventName) && body.continue === false))
  ) {
    effect.blocked = effectiveReason;
  }
  if (body.continue === false && !STOPS.has(eventName)) effect.halted = true;
  if (READS_CONTEXT.has(eventName) && typeof hso.additionalContext === "string")
    effect.context = hso.additionalContext.replace(/</g, "&lt;").replace(/>/g, "&gt;");
  if (typeof body.systemMessage === "string") effect.userMessage = body.systemMessage;
  return effect;
}
