import { WIRE_VERSION, type Decision, type NativeEvent } from "../../events/types.ts";
import type { AgentOutput, FailureOptions } from "../types.ts";

/**
 * When Hookbox itself cannot evaluate (daemon and in-process both failed, bad payload, a bug).
 * Fail open is every agent's default for a broken hook (research §11.2): exit 1 with the cause
 * on stderr, which Claude, Gemini, Codex, Cursor and Copilot all treat as "non-blocking error,
 * go ahead" while still showing the user that something is wrong. Exit codes other than 0/1/2
 * must never be used: Gemini turns them into a deny (research §2.4).
 */
export function failOpen(reason: string): AgentOutput {
  return {
    stdout: "",
    stderr: `hookbox: could not evaluate hooks: ${oneLine(reason)} (failing open: the agent goes ahead; \`hookbox emit --fail-closed\` blocks instead)\n`,
    exitCode: 1,
  };
}

export function failClosedReason(reason: string): string {
  return `Hookbox could not evaluate its hooks (${oneLine(reason)}), and it runs with --fail-closed, so this is blocked.`;
}

/** The block a failure becomes under --fail-closed, as a decision the adapter encodes like any other deny. */
export function failClosedDecision(event: NativeEvent, reason: string): Decision {
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
  if (!options.failClosed) return failOpen(reason);
  // Blocking a stop makes the agent go on; once it is already going on because of a stop hook,
  // blocking again would loop for as long as Hookbox is broken.
  if (event !== undefined && STOP_EVENTS.has(event.event_type) && event.stop_hook_active === true) return failOpen(`${reason}; not blocking the stop a second time`);
  const blockReason = failClosedReason(reason);
  if (event === undefined) return encoding.blockUnknownEvent(blockReason);
  return encoding.encode(failClosedDecision(event, blockReason), event);
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 2000 ? `${flat.slice(0, 2000)}…` : flat;
}
