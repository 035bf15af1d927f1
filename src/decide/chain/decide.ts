import type { AuditRecordV1 } from "../audit/record.ts";
import { WIRE_VERSION, type Decision, type NativeEvent, type RunStatus, type RunSummary } from "../../core/events/types.ts";
import type { InjectionCollector } from "./injections.ts";
import type { ChainState } from "./run-rules.ts";

/** The chain's state merged into the one answer for the event (DESIGN §4). */
export function decide(
  eventId: string,
  event: NativeEvent,
  state: ChainState,
  injections: InjectionCollector,
  records: readonly AuditRecordV1[],
): Decision {
  const runs: RunSummary[] = records.map((r) => ({
    hook_id: r.hook_id,
    // An event's own records are final: only a triggered run's first record says "running".
    status: r.status as RunStatus,
    duration_ms: r.duration_ms,
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    ...(r.error_code ? { error_code: r.error_code } : {}),
    ...(r.action ? { action: r.action } : {}),
  }));
  const decision = state.denied ? "deny" : state.asked ? "ask" : "allow";
  return {
    v: WIRE_VERSION,
    event_id: eventId,
    event_type: event.event_type,
    decision,
    ...(state.denied ? { reason: state.denied.reason, decided_by: state.denied.hookId } : {}),
    ...(!state.denied && state.asked ? { reason: state.asked.prompt, decided_by: state.asked.hook_id, approval: state.asked } : {}),
    ...(state.modified && !state.denied ? { data: state.modified } : {}),
    // Kept on a deny too: a redaction must not be undone by a hook that blocks after it.
    ...(state.output ? { tool_response: state.output.value } : {}),
    context_injections: injections.collected,
    user_messages: state.userMessages,
    continue: !state.halted,
    ...(state.halted?.reason ? { stop_reason: state.halted.reason } : {}),
    ...(state.suppressOutput ? { suppress_output: true } : {}),
    ...(state.abilities.size > 0 ? { suggested_abilities: [...state.abilities.values()] } : {}),
    ...(state.documents.size > 0 ? { suggested_documents: [...state.documents.values()] } : {}),
    ...(state.intent ? { new_intent: state.intent } : {}),
    ...(state.followUps.length > 0 ? { follow_up_actions: state.followUps } : {}),
    runs,
  };
}
