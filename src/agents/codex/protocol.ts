import { CANONICAL_EVENTS } from "../../core/events/names.ts";
import type { Decision, NativeEvent } from "../../core/events/types.ts";
import type { AgentOutput, AgentProtocol, DecodeHint, FailureOptions } from "../shared/protocol/types.ts";
import { joinText, summarize, type Answer } from "../shared/protocol/answer.ts";
import { refineApplyPatch } from "../shared/protocol/apply-patch.ts";
import { decodeHookPayload } from "../shared/protocol/hook-payload.ts";
import { agentEventNameOf, eventTable } from "../shared/protocol/event-names.ts";
import { failure } from "../shared/protocol/failure.ts";
import type { EventParts } from "../shared/protocol/native-event.ts";
import { exitTwo, jsonOrNothing } from "../shared/protocol/output.ts";
import { CODEX_TOOLS } from "./tools.ts";

const EVENTS = eventTable(Object.fromEntries(CANONICAL_EVENTS.map((name) => [name, name])));

/** Codex's patch tool is matched as Edit and Write, as Codex itself does (shared/apply-patch.ts). */
function refine(parts: EventParts): EventParts {
  return parts.tool?.agent_tool_name === "apply_patch" ? refineApplyPatch(parts, parts.tool.input?.command) : parts;
}

/**
 * Codex parses hook output strictly (serde `deny_unknown_fields`, codex-rs/hooks/src/schema.rs):
 * an unexpected field or value fails the hook, and a failed hook fails open. So blocks use exit 2
 * with the reason on stderr — Codex's oldest, field-free contract, which it honours on every event
 * that can block (pre_tool_use.rs, stop.rs) and only with stderr non-empty — and JSON carries only
 * what each event's wire type declares.
 */
const BLOCKS_WITH_EXIT_TWO: ReadonlySet<string> = new Set(["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"]);
const TAKES_CONTEXT: ReadonlySet<string> = new Set(["PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart"]);
/** PreToolUse and PermissionRequest reject continue/stopReason/suppressOutput (output_parser.rs): a halt blocks the tool instead. */
const NO_HALT: ReadonlySet<string> = new Set(["PreToolUse", "PermissionRequest"]);

export function encodeCodex(decision: Decision, event: NativeEvent): AgentOutput {
  const answer = summarize(decision);
  const eventName = agentEventNameOf(event, EVENTS);
  if (eventName === "PermissionRequest") return encodePermissionRequest(answer);
  // Codex rejects permissionDecision "ask" (output_parser.rs): an ask it cannot raise blocks with its reason.
  const halts = answer.halt !== undefined && !NO_HALT.has(eventName);
  const blocked = answer.verdict !== "allow" || (answer.halt !== undefined && !halts);
  const blockReason = answer.verdict !== "allow" ? answer.reason : (answer.halt?.reason ?? "");
  // A halt takes precedence over a block in Codex (stop.rs), so it is said in JSON, not exit 2.
  if (blocked && !halts && BLOCKS_WITH_EXIT_TWO.has(eventName)) return exitTwo(blockReason);

  const body: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  if (halts) {
    body.continue = false;
    body.stopReason = answer.halt?.reason;
  }
  // updatedInput is only read beside permissionDecision "allow" (output_parser.rs), which Codex
  // uses for rewrites alone: its approvals go through PermissionRequest.
  if (eventName === "PreToolUse" && answer.rewrite) {
    specific.permissionDecision = "allow";
    specific.updatedInput = answer.rewrite;
  }
  if (TAKES_CONTEXT.has(eventName) && answer.context) specific.additionalContext = answer.context;
  const userText = joinText(answer.userMessage, blocked && !halts ? blockReason : undefined);
  if (userText) body.systemMessage = userText;
  if (Object.keys(specific).length > 0) body.hookSpecificOutput = { hookEventName: eventName, ...specific };
  return jsonOrNothing(body);
}

/**
 * The approval prompt is already the ask, and "allow" would approve for the user: only a deny is
 * said. No halt either — Codex rejects continue:false and interrupt here — so a halt denies.
 */
function encodePermissionRequest(answer: Answer): AgentOutput {
  const denied = answer.verdict === "deny" || answer.halt !== undefined;
  return jsonOrNothing({
    ...(answer.userMessage && { systemMessage: answer.userMessage }),
    ...(denied && {
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: answer.verdict === "deny" ? answer.reason : answer.halt?.reason },
      },
    }),
  });
}

export const codex: AgentProtocol = {
  name: "codex",
  events: EVENTS,
  tools: CODEX_TOOLS,
  /** Codex sets no project variable: its payload's cwd is the project. */
  projectDirEnv: [],
  /** updatedInput beside "allow", on PreToolUse only. */
  acceptsRewrite: (event) => agentEventNameOf(event, EVENTS) === "PreToolUse",
  /** Codex adds `turn_id` and `model` to turn events, allows a null transcript_path, and calls its edit tool apply_patch; Claude sends prompt_id instead. */
  detect(payload) {
    if (typeof payload !== "object" || payload === null) return false;
    const record = payload as Record<string, unknown>;
    if (typeof record.hook_event_name !== "string" || "prompt_id" in record) return false;
    return (
      (typeof record.turn_id === "string" && typeof record.model === "string") ||
      record.transcript_path === null ||
      record.tool_name === "apply_patch"
    );
  },
  decode: (payload: unknown, hint?: DecodeHint) =>
    decodeHookPayload({ agent: "codex", label: "Codex", events: EVENTS, tools: CODEX_TOOLS, projectDirEnv: [], refine }, payload, hint),
  encode: encodeCodex,
  failure: (reason: string, event: NativeEvent | undefined, options: FailureOptions) =>
    failure({ encode: encodeCodex, blockUnknownEvent: (reason) => exitTwo(reason) }, reason, event, options),
};
