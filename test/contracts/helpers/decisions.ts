import { WIRE_VERSION, type Decision } from "../../../src/core/events/types.ts";

/** The decision kinds every adapter must encode (issue 6): one Decision each, for any event. */
export const DECISION_KINDS = [
  "allow",
  "deny",
  "deny-without-reason",
  "ask",
  "modify",
  "context",
  "halt",
  "user-message",
  "deny-with-everything",
] as const;
export type DecisionKind = (typeof DECISION_KINDS)[number];

export const REASON = "Policy forbids this";
export const ASK_REASON = "Confirm the force-push first";
export const CONTEXT = "Remember: main is protected.";
export const USER_MESSAGE = "Hookbox checked this call.";
export const STOP_REASON = "Budget exhausted";
export const REWRITE = { command: "echo rewritten" };

function base(eventType: string): Decision {
  return {
    v: WIRE_VERSION,
    event_id: "evt-1",
    event_type: eventType,
    decision: "allow",
    context_injections: [],
    user_messages: [],
    continue: true,
    runs: [],
  };
}

export function decisionOf(kind: DecisionKind, eventType: string): Decision {
  const allow = base(eventType);
  switch (kind) {
    case "allow":
      return allow;
    case "deny":
      return { ...allow, decision: "deny", reason: REASON, decided_by: "guard" };
    case "deny-without-reason":
      return { ...allow, decision: "deny", decided_by: "guard" };
    case "ask":
      return { ...allow, decision: "ask", reason: ASK_REASON, decided_by: "confirm" };
    case "modify":
      return { ...allow, data: REWRITE };
    case "context":
      return { ...allow, context_injections: [{ hook_id: "facts", role: "system", content: CONTEXT }] };
    case "halt":
      return { ...allow, continue: false, stop_reason: STOP_REASON };
    case "user-message":
      return { ...allow, user_messages: [{ hook_id: "notes", level: "info", message: USER_MESSAGE }] };
    case "deny-with-everything":
      return {
        ...allow,
        decision: "deny",
        reason: REASON,
        decided_by: "guard",
        context_injections: [{ hook_id: "facts", role: "system", content: CONTEXT }],
        user_messages: [{ hook_id: "notes", level: "warning", message: USER_MESSAGE }],
      };
  }
}
