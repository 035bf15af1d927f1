import { WIRE_VERSION, type Decision, type NativeEvent } from "../../../core/events/types.ts";
import type { AgentOutput, FailureOptions } from "./types.ts";

/**
 * When Hookbox could not fully evaluate an event and the rule (SECURITY.md, "When Hookbox cannot
 * decide") lets it go ahead: exit 1 with the cause on stderr, which Claude, Gemini, Codex, Cursor
 * and Copilot all treat as "non-blocking error, go ahead" while showing the user that something
 * is wrong. Exit codes other than 0/1/2 must never be used: Gemini turns them into a deny.
 */
export function failOpen(message: string): AgentOutput {
  return { body: undefined, stderr: `hookbox: ${oneLine(message)}\n`, exitCode: 1 };
}

/** The block a failure becomes when the rule says deny, as a decision the adapter encodes like any other deny. */
export function blockDecision(event: NativeEvent, reason: string): Decision {
  return {
    v: WIRE_VERSION,
    event_id: "",
    event_type: event.event_type,
    decision: "deny",
    reason,
    decided_by: "hookbox",
    context_injections: [],
    user_messages: [],
    continue: true,
    runs: [],
  };
}

export interface FailureEncoding {
  encode(decision: Decision, event: NativeEvent): AgentOutput;
  /** The strictest block this agent honours whatever the event: used when the payload could not even be decoded. */
  blockUnknownEvent(reason: string): AgentOutput;
}

const STOP_EVENTS: ReadonlySet<string> = new Set(["Stop", "SubagentStop"]);

export function failure(encoding: FailureEncoding, reason: string, event: NativeEvent | undefined, options: FailureOptions): AgentOutput {
  if (!options.block) return failOpen(reason);
  // Blocking a stop makes the agent go on; once it is already going on because of a stop hook,
  // blocking again would loop for as long as Hookbox is broken.
  if (event !== undefined && STOP_EVENTS.has(event.event_type) && event.stop_hook_active === true)
    return failOpen(`${reason}; not blocking the stop a second time`);
  if (event === undefined) return encoding.blockUnknownEvent(reason);
  return encoding.encode(blockDecision(event, reason), event);
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 2000 ? `${flat.slice(0, 2000)}…` : flat;
}
