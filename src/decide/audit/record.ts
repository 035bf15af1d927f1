import type { LogEntry } from "../../../sandbox/index.ts";
import type { HostCallRecord } from "../../capabilities/types.ts";
import type { LlmCallRecord } from "../../capabilities/llm/record.ts";
import type { AnsweredVia, ApprovalOutcome } from "../approvals/store.ts";
import type { FollowUpRecord } from "../chain/follow-ups.ts";
import type { Decision, HookAction, InjectionRole, RunStatus } from "../../core/events/types.ts";

export const AUDIT_VERSION = 1;

/**
 * Every record written since the chain was added carries `prev` (its last field): the link to
 * the line before it, `sha256:<hex>` of that line's exact bytes (src/decide/audit/chain.ts). The writer
 * sets it; readers that do not check the chain ignore it, as they ignore any field they do not
 * know. Records written before the chain have none.
 */
export interface Chained {
  readonly prev?: string;
}

/**
 * One record per hook run (skipped ones included), appended to the audit log before the answer
 * leaves (DESIGN §7). Versioned: readers switch on `v`.
 */
export interface AuditRecordV1 extends Chained {
  readonly v: typeof AUDIT_VERSION;
  /** A hook's run. Records written before decisions were audited have no kind: they are runs. */
  readonly kind?: "run";
  /** Unique per record. */
  readonly id: string;
  /** The decision this run belongs to (shared by every run of one event). */
  readonly event_id: string;
  readonly hook_id: string;
  readonly event_type: string;
  readonly session_id: string;
  /** Why the hook ran: which event and matcher, or a manual fire. */
  readonly trigger_reason: string;
  /** What started it: an agent's event, a manual fire, its schedule, a file watch, or a background run after an event (records before triggers have none: events). */
  readonly trigger?: "event" | "manual" | "periodic" | "watch" | "background";
  /**
   * One run of a triggered hook across its records: a run still going after a few seconds is
   * recorded `running` first, then again when it ends; readers show the last (src/decide/audit/read.ts).
   */
  readonly run_id?: string;
  /** `sha256:<hex>` of the event the hook saw (as JSON): the same digest as its decision record's. */
  readonly event_digest?: string;
  /** A triggered run's event (its timing context or its changes), secrets redacted, size-capped (core/text/excerpt.ts). */
  readonly event?: unknown;
  /** A declarative hook's step results, secrets redacted, size-capped. */
  readonly steps?: unknown;
  /** Its model calls: endpoint, prompt and answer (secrets redacted), tokens, attempts (src/capabilities/llm/record.ts). */
  readonly llm?: readonly LlmCallRecord[];
  readonly status: RunStatus | "running";
  /** Skip reason, precise failure cause, or deny reason. */
  readonly reason?: string;
  readonly error_code?: string;
  readonly action?: HookAction;
  /** "transform" for a run among the rewriters (permissions.modify), before the checks; absent for a check. */
  readonly phase?: "transform";
  readonly duration_ms: number;
  readonly started_at: string;
  readonly completed_at: string;
  /** Context this run injected, with provenance (the hook id is the record's). */
  readonly injections: readonly { readonly role: InjectionRole; readonly content: string; readonly truncated: boolean }[];
  /** Everything the handler did through its hook API, denials included. */
  readonly host_calls: readonly HostCallRecord[];
  readonly logs: readonly LogEntry[];
  /** The result's follow_up_actions and what became of each: run_command executed under the hook's run grant (or refused), the others queued for the caller. */
  readonly follow_ups?: readonly FollowUpRecord[];
  readonly stats?: { readonly cpu_ms: number; readonly heap_bytes: number; readonly cold_start: boolean };
  /** Notes the pipeline added (an injection dropped for lack of permission, a budget reached …). */
  readonly notes?: readonly string[];
  /** Set for a hook the operator runs in shadow mode (hooks.<id>.mode: monitor): nothing it returned reached the agent. */
  readonly mode?: "monitor";
  /** What a monitored hook would have done had it been on: its decision, and why. */
  readonly would?: WouldBe;
}

/** A monitored hook's would-be effect on the event (`hookbox runs --would-block` lists deny and ask). */
export interface WouldBe {
  readonly decision: "allow" | "deny" | "ask" | "modify";
  readonly reason?: string;
}

/**
 * One record per event, beside the records of its hook runs: what was decided, by which hook
 * set, served by what — written even when no hook matched, so a decision is never unaudited.
 */
export interface AuditDecisionV1 extends Chained {
  readonly v: typeof AUDIT_VERSION;
  readonly kind: "decision";
  readonly id: string;
  /** Shared with the event's run records. */
  readonly event_id: string;
  readonly event_type: string;
  readonly session_id: string;
  readonly agent?: string;
  readonly tool_name?: string;
  /** What the event was about, in a line (the command, the path, the prompt …; src/core/events/subject.ts). */
  readonly subject?: string;
  /** The project root the hook set was resolved from; absent for an event that names no directory. */
  readonly project?: string;
  readonly decision: "allow" | "deny" | "ask";
  readonly reason?: string;
  readonly decided_by?: string;
  /** A hook asked and the request was held for a person: how it ended, who answered and through what. */
  readonly approval?: {
    readonly id: string;
    readonly hook_id: string;
    readonly decision: "allow" | "deny";
    readonly by: ApprovalOutcome["by"];
    readonly via?: AnsweredVia;
    readonly always?: boolean;
  };
  /** Set when Hookbox could not fully evaluate the event (undecodable, over a limit, unusable operator file): why, and what the rule answered. */
  readonly incomplete?: { readonly code: string; readonly cause: string; readonly rule: string };
  /** Set when the operator's escalation answered (or slowed) this event: the session's denials so far, the threshold, the answer. */
  readonly escalation?: { readonly denials: number; readonly after_denials: number; readonly answer: "slow" | "ask" | "deny" };
  /** What the hooks returned for the caller besides the decision (the repository template's hints), as answered. */
  readonly hints?: Pick<Decision, "suggested_abilities" | "suggested_documents" | "new_intent" | "follow_up_actions">;
  /** Triggered runs whose queued context this event's answer carried. */
  readonly delivered_runs?: Decision["delivered_runs"];
  /** `sha256:<hex>` of the event as evaluated; its run records carry the same. */
  readonly event_digest?: string;
  /** The event as evaluated, secrets redacted, size-capped (core/text/excerpt.ts). */
  readonly event?: unknown;
  /** Context queued by triggered runs of this project and delivered with this answer (their run ids). */
  readonly delivered?: readonly { readonly hook_id: string; readonly run_id: string }[];
  readonly hook_set: {
    readonly registry_version: number;
    readonly hooks: number;
    readonly broken: readonly string[];
    readonly operator: "ok" | "last-good" | "unusable";
  };
  /** Who answered: the daemon, or `emit` in its own process, or `hookbox test`, or `hookbox replay` (its records never reach the log). */
  readonly served_by: { readonly via: "daemon" | "emit" | "test" | "replay"; readonly pid: number; readonly build: string };
  readonly runs: number;
  readonly duration_ms: number;
  readonly started_at: string;
  readonly completed_at: string;
}

export type AuditEntry = AuditRecordV1 | AuditDecisionV1;

/**
 * Written by a writer that found the chain's tail broken at open (the daemon): the break stays in
 * the log, where `hookbox audit verify` reports it, and the chain goes on from this record, so one
 * break is reported once at start rather than at every start after it.
 */
export interface AuditChainV1 extends Chained {
  readonly v: typeof AUDIT_VERSION;
  readonly kind: "chain";
  readonly id: string;
  readonly at: string;
  /** What the check found: a problem kind of chain.ts, where, and its description. */
  readonly found: { readonly problem: string; readonly file: string; readonly line: number; readonly detail: string };
  /** The writer that found it. */
  readonly pid: number;
}

/**
 * The session id of the test calls `hookbox doctor` sends through each agent's hook entry
 * (src/cli/doctor/probes.ts): the console marks them as doctor's and hides them by default.
 */
export const DOCTOR_SESSION_ID = "hookbox-doctor";

export function isDecisionRecord(entry: { readonly kind?: string }): entry is AuditDecisionV1 {
  return entry.kind === "decision";
}
