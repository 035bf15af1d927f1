import type { HookProcessOutput } from "../../../../src/agents/protocols.ts";
import { noEffect, parseStdout, type Effect } from "./effect.ts";

/** Cursor's reading of an answer, as documented (research §3.3; exit codes from secondary sources). */
const PERMISSION_EVENTS: ReadonlySet<string> = new Set([
  "preToolUse",
  "beforeShellExecution",
  "beforeMCPExecution",
  "beforeReadFile",
  "beforeTabFileRead",
]);

export function cursorReads(output: HookProcessOutput, eventName: string): Effect {
  const effect = noEffect();
  const body = parseStdout(output) ?? {};
  if (output.exitCode === 2) effect.blocked = String(body.agent_message ?? body.user_message ?? output.stderr.trim());
  if (output.exitCode !== 0 && output.exitCode !== 2) return { ...effect, rejected: `exit ${output.exitCode}` };
  if (PERMISSION_EVENTS.has(eventName)) {
    if (body.permission === "deny") effect.blocked = String(body.agent_message ?? body.user_message ?? "denied");
    if (body.permission === "ask") effect.asked = String(body.user_message ?? "");
    if (body.permission === "allow") effect.approved = true;
    if (body.permission === undefined && typeof body.agent_message === "string") effect.context = body.agent_message;
    if (body.updated_input !== undefined && eventName === "preToolUse") effect.rewrite = body.updated_input;
  }
  if (eventName === "beforeSubmitPrompt" && body.continue === false) effect.blocked = String(body.user_message ?? "");
  if ((eventName === "stop" || eventName === "subagentStop") && typeof body.followup_message === "string") effect.blocked = body.followup_message;
  if (eventName === "sessionStart") {
    if (typeof body.additional_context === "string") effect.context = body.additional_context;
    if (body.continue === false) effect.halted = true;
  }
  if (typeof body.user_message === "string") effect.userMessage = body.user_message;
  return effect;
}
