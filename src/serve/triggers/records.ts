import { excerpt } from "../../core/text/excerpt.ts";
import { AUDIT_VERSION, type AuditRecordV1 } from "../../decide/audit/record.ts";
import { EVENT_EXCERPT_BYTES } from "../../decide/chain/pipeline.ts";
import type { NativeEvent } from "../../core/events/types.ts";

/** What every record of one triggered run shares. */
export interface RunIdentity {
  readonly hookId: string;
  readonly runId: string;
  readonly eventId: string;
  readonly eventDigest: string;
  readonly event: NativeEvent;
  readonly trigger: "periodic" | "watch" | "manual";
  readonly reason: string;
}

function record(run: RunIdentity, id: string, status: AuditRecordV1["status"], at: number, reason?: string): AuditRecordV1 {
  const time = new Date(at).toISOString();
  return {
    v: AUDIT_VERSION,
    kind: "run",
    id,
    event_id: run.eventId,
    hook_id: run.hookId,
    event_type: run.event.event_type,
    session_id: run.event.session_id,
    trigger_reason: run.reason,
    trigger: run.trigger,
    run_id: run.runId,
    event_digest: run.eventDigest,
    event: excerpt(run.event, EVENT_EXCERPT_BYTES),
    status,
    ...(reason !== undefined ? { reason } : {}),
    duration_ms: 0,
    started_at: time,
    completed_at: time,
    injections: [],
    host_calls: [],
    logs: [],
  };
}

/** A run that did not start: in flight already, the cap reached, its cooldown. */
export function skippedRun(run: RunIdentity, id: string, at: number, reason: string): AuditRecordV1 {
  return record(run, id, "skipped", at, reason);
}

/** A run still going: readers show the last record of a run_id, so the final one replaces it. */
export function runningRun(run: RunIdentity, id: string, startedAt: number): AuditRecordV1 {
  return record(run, id, "running", startedAt);
}
