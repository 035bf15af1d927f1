import type { Decision, NativeEvent } from "../../core/events/types.ts";
import type { AgentOutput, AgentProtocol, FailureOptions } from "../shared/protocol/types.ts";
import { CURSOR_EVENTS, CURSOR_PROJECT_DIR_ENV, decodeCursor } from "./payload.ts";
import { CURSOR_TOOLS } from "./tools.ts";
import { joinText, summarize } from "../shared/protocol/answer.ts";
import { agentEventNameOf } from "../shared/protocol/event-names.ts";
import { failure } from "../shared/protocol/failure.ts";
import { exitTwo, jsonOutput } from "../shared/protocol/output.ts";

/** Events that answer with `permission` (research §3.3); beforeReadFile and Tab reads know only allow and deny. */
const PERMISSION_EVENTS: Readonly<Record<string, { readonly ask: boolean; readonly rewrite: boolean }>> = {
  preToolUse: { ask: true, rewrite: true },
  beforeShellExecution: { ask: true, rewrite: false },
  beforeMCPExecution: { ask: true, rewrite: false },
  beforeReadFile: { ask: false, rewrite: false },
  beforeTabFileRead: { ask: false, rewrite: false },
};

/**
 * Cursor always gets a JSON object, `{}` when Hookbox has nothing to say (Cupcake's Cursor
 * harness does the same): "allow" is never sent, as it could skip Cursor's own approval.
 */
export function encodeCursor(decision: Decision, event: NativeEvent): AgentOutput {
  const answer = summarize(decision);
  const eventName = agentEventNameOf(event, CURSOR_EVENTS);
  const body: Record<string, unknown> = {};
  const permission = PERMISSION_EVENTS[eventName];
  if (permission) {
    // No halt on tool events: the halt blocks the action it was raised on.
    const denied = answer.verdict === "deny" || (answer.verdict === "ask" && !permission.ask) || answer.halt !== undefined;
    const reason = answer.verdict !== "allow" ? answer.reason : answer.halt?.reason;
    if (denied) body.permission = "deny";
    else if (answer.verdict === "ask") body.permission = "ask";
    const userMessage = joinText(reason, answer.userMessage);
    const agentMessage = joinText(reason, answer.context);
    if (userMessage) body.user_message = userMessage;
    if (agentMessage) body.agent_message = agentMessage;
    if (permission.rewrite && answer.rewrite && !denied) body.updated_input = answer.rewrite;
  } else if (eventName === "beforeSubmitPrompt") {
    if (answer.verdict !== "allow" || answer.halt) body.continue = false;
    const userMessage = joinText(answer.verdict !== "allow" ? answer.reason : answer.halt?.reason, answer.userMessage);
    if (userMessage) body.user_message = userMessage;
  } else if (eventName === "stop" || eventName === "subagentStop") {
    // A follow-up message is Cursor's way to keep the agent going (research §3.3, max 5 in a row);
    // never after the user stopped it (SessionStop): that would restart what they just stopped.
    if (answer.verdict !== "allow" && !answer.halt && event.event_type !== "SessionStop") body.followup_message = answer.reason;
  } else if (eventName === "sessionStart") {
    if (answer.context) body.additional_context = answer.context;
    if (answer.halt) body.continue = false;
  }
  return jsonOutput(body);
}

export const cursor: AgentProtocol = {
  name: "cursor",
  events: CURSOR_EVENTS,
  tools: CURSOR_TOOLS,
  projectDirEnv: CURSOR_PROJECT_DIR_ENV,
  /** updated_input on preToolUse; beforeShellExecution and beforeMCPExecution run the original whatever the answer. */
  acceptsRewrite: (event) => PERMISSION_EVENTS[agentEventNameOf(event, CURSOR_EVENTS)]?.rewrite === true,
  /** Cursor's common fields (research §3.3); no other agent sends them. */
  detect(payload) {
    if (typeof payload !== "object" || payload === null) return false;
    const record = payload as Record<string, unknown>;
    return typeof record.conversation_id === "string" || typeof record.cursor_version === "string" || Array.isArray(record.workspace_roots);
  },
  decode: decodeCursor,
  encode: encodeCursor,
  failure: (reason: string, event: NativeEvent | undefined, options: FailureOptions) =>
    failure(
      // Exit 2 denies whatever the JSON says (research §3.3); the JSON still carries the messages.
      { encode: encodeCursor, blockUnknownEvent: (reason) => exitTwo(reason, { permission: "deny", user_message: reason, agent_message: reason }) },
      reason,
      event,
      options,
    ),
};
