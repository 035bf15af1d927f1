import type { AuditDecisionV1, AuditRecordV1 } from "../../src/decide/audit/record.ts";

/** A decision record as the evaluator writes one. */
export function decisionRecord(over: Partial<AuditDecisionV1> = {}): AuditDecisionV1 {
  return {
    v: 1,
    kind: "decision",
    id: "d-1",
    event_id: "e-1",
    event_type: "PreToolUse",
    session_id: "s-1",
    tool_name: "Bash",
    subject: "rm -rf /",
    project: "/work/proj",
    decision: "deny",
    reason: "no",
    decided_by: "guard",
    hook_set: { registry_version: 1, hooks: 1, broken: [], operator: "ok" },
    served_by: { via: "daemon", pid: 1, build: "b" },
    runs: 1,
    duration_ms: 3,
    started_at: "2026-11-24T10:00:00.000Z",
    completed_at: "2026-11-24T10:00:00.003Z",
    ...over,
  };
}

/** A run record as the pipeline writes one. */
export function runRecord(over: Partial<AuditRecordV1> = {}): AuditRecordV1 {
  return {
    v: 1,
    id: "r-1",
    event_id: "e-1",
    hook_id: "guard",
    event_type: "PreToolUse",
    session_id: "s-1",
    trigger_reason: "PreToolUse (tool Bash)",
    status: "denied",
    reason: "no",
    action: "deny",
    duration_ms: 2,
    started_at: "2026-11-24T10:00:00.000Z",
    completed_at: "2026-11-24T10:00:00.002Z",
    injections: [],
    host_calls: [],
    logs: [],
    ...over,
  };
}
