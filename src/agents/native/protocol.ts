import { parseEvent } from "../../core/events/parse.ts";
import { WIRE_VERSION, type Decision, type NativeEvent } from "../../core/events/types.ts";
import type { AgentOutput, AgentProtocol, DecodeHint, FailureOptions } from "../shared/protocol/types.ts";
import { jsonOutput } from "../shared/protocol/output.ts";
import { readPayload } from "../shared/protocol/payload.ts";

/**
 * Hookbox's own dialect: the native event in (src/core/events/parse.ts, the same rules as
 * POST /v1/events/:type, with `emit EVENT` in the URL's place), the Decision out as JSON.
 */
function encodeNative(decision: Decision): AgentOutput {
  return jsonOutput(decision as unknown as Record<string, unknown>);
}

/**
 * A failure is still one JSON object: the fallback decision a script can act on, plus the
 * cause. Exit 1 says Hookbox did not evaluate, whichever way it fell.
 */
function nativeFailure(reason: string, event: NativeEvent | undefined, options: FailureOptions): AgentOutput {
  return jsonOutput(
    {
      v: WIRE_VERSION,
      event_type: event?.event_type ?? null,
      decision: options.block ? "deny" : "allow",
      reason,
      error: { code: "evaluation_incomplete", message: reason },
    },
    1,
    `hookbox: ${reason}\n`,
  );
}

export const native: AgentProtocol = {
  name: "native",
  /** A native event names itself in event_type, where every agent says hook_event_name (or nothing). */
  detect: (payload) =>
    typeof payload === "object" &&
    payload !== null &&
    typeof (payload as Record<string, unknown>).event_type === "string" &&
    !("hook_event_name" in payload) &&
    !("hookEventName" in payload),
  decode(payload: unknown, hint?: DecodeHint) {
    const event = parseEvent(readPayload(payload, "native"), hint?.eventName, hint?.now);
    return event.agent === undefined ? { ...event, agent: "native" } : event;
  },
  /** The decision carries `data`: the caller applies it. */
  acceptsRewrite: () => true,
  /** The caller reads `tool_response` in the decision. */
  acceptsOutputRewrite: () => true,
  encode: encodeNative,
  failure: nativeFailure,
};
