import type { HookProcessOutput } from "../../../../src/agents/protocols.ts";
import { noEffect, parseStdout, type Effect } from "./effect.ts";

/**
 * Copilot CLI's reading of an answer (cli-hooks-reference, and the hook output types 1.0.102 ships
 * in copilot-sdk/types.d.ts, checked against the real CLI in test/e2e/agents/copilot-hookbox.test.ts):
 * non-zero exits are logged and skipped — except permissionRequest, where exit 2 denies — and only
 * these fields are read.
 */
const READS_CONTEXT: ReadonlySet<string> = new Set([
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "Notification",
  "SubagentStart",
  "PostToolUseFailure",
]);

export function copilotReads(output: HookProcessOutput, eventType: string): Effect {
  const effect = noEffect();
  if (output.exitCode !== 0) {
    if (eventType === "PermissionRequest" && output.exitCode === 2) return { ...effect, blocked: "denied" };
    return { ...effect, rejected: `exit ${output.exitCode} is logged and skipped` };
  }
  const body = parseStdout(output) ?? {};
  if (eventType === "PreToolUse") {
    if (body.permissionDecision === "deny") effect.blocked = String(body.permissionDecisionReason ?? "");
    if (body.permissionDecision === "ask") effect.asked = String(body.permissionDecisionReason ?? "");
    if (body.permissionDecision === "allow") effect.approved = true;
    if (body.modifiedArgs !== undefined) effect.rewrite = body.modifiedArgs;
  }
  if (eventType === "PermissionRequest") {
    if (body.behavior === "deny") effect.blocked = String(body.message ?? "");
    if (body.behavior === "allow") effect.approved = true;
    if (body.interrupt === true) effect.halted = true;
  }
  if (["Stop", "SubagentStop", "UserPromptSubmit"].includes(eventType) && body.decision === "block") effect.blocked = String(body.reason ?? "");
  if (READS_CONTEXT.has(eventType) && typeof body.additionalContext === "string") effect.context = body.additionalContext;
  return effect;
}
