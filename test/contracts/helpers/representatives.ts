import type { AgentName } from "../../../src/agents/protocols.ts";
import type { AgentPayload } from "./payloads.ts";

/** Payload fields that name the event, in each dialect. */
function eventNameOf(item: AgentPayload): string {
  const payload = item.payload as Record<string, unknown>;
  return String(payload.hook_event_name ?? payload.hookEventName ?? item.eventName ?? payload.event_type);
}

/**
 * The payloads whose encodings are kept as goldens: the first captured fixture of each event
 * (the other captures of an event differ only in ids and text) and every research or synthetic sample.
 */
export function representatives(items: readonly AgentPayload[], agent: AgentName): AgentPayload[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    if (item.agent !== agent) return false;
    if (item.id.startsWith("samples/")) return true;
    const name = eventNameOf(item);
    if (seen.has(name)) return false;
    seen.add(name);
    return true;
  });
}
