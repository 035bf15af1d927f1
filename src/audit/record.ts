import type { LogEntry } from "../../sandbox/index.ts";
import type { HostCallRecord } from "../capabilities/types.ts";
import type { HookAction, InjectionRole, RunStatus } from "../events/types.ts";

export const AUDIT_VERSION = 1;

/**
 * One record per hook run (skipped ones included), appended to the audit log before the answer
 * leaves (DESIGN §7). Versioned: readers switch on `v`.
 */
export interface AuditRecordV1 {
  readonly v: typeof AUDIT_VERSION;
  /** Unique per record. */
  readonly id: string;
  /** The decision this run belongs to (shared by every run of one event). */
  readonly event_id: string;
  readonly hook_id: string;
  readonly event_type: string;
  readonly session_id: string;
  /** Why the hook ran: which event and matcher, or a manual fire. */
  readonly trigger_reason: string;
  readonly status: RunStatus;
  /** Skip reason, precise failure cause, or deny reason. */
  readonly reason?: string;
  readonly error_code?: string;
  readonly action?: HookAction;
  readonly duration_ms: number;
  readonly started_at: string;
  readonly completed_at: string;
  /** Context this run injected, with provenance (the hook id is the record's). */
  readonly injections: readonly { readonly role: InjectionRole; readonly content: string; readonly truncated: boolean }[];
  /** Everything the handler did through its hook API, denials included. */
  readonly host_calls: readonly HostCallRecord[];
  readonly logs: readonly LogEntry[];
  readonly stats?: { readonly cpu_ms: number; readonly heap_bytes: number; readonly cold_start: boolean };
  /** Notes the pipeline added (an injection dropped for lack of permission, a budget reached …). */
  readonly notes?: readonly string[];
}
