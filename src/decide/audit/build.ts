// Every run record and decision record is built here (record.ts says what they hold): the
// pipeline's, a triggered run's `running` and skipped ones, a monitored hook's (shadow mode: its
// mode and would-be decision), the evaluator's decision, an approval's note. Its inputs are plain
// data, so the pipeline, the shadow runner and the trigger runner only say what happened.
import type { LogEntry } from "../../../sandbox/index.ts";
import type { HostCallRecord } from "../../capabilities/types.ts";
import type { LlmCallRecord } from "../../capabilities/llm/record.ts";
import type { Decision, HookAction, NativeEvent, RunStatus } from "../../core/events/types.ts";
import { formatDiagnostic, type Diagnostic } from "../../hooks/config/diagnostic.ts";
import type { RegistrySnapshot } from "../../hooks/registry/registry.ts";
import { excerpt } from "../../core/text/excerpt.ts";
import { AUDIT_VERSION, type AuditDecisionV1, type AuditRecordV1, type WouldBe } from "./record.ts";

/** What of a triggered run's event, and of a declarative hook's steps, the run record keeps. */
export const EVENT_EXCERPT_BYTES = 4096;
export const STEPS_EXCERPT_BYTES = 16 * 1024;

/** What started a run, in every run record: an agent's event, a manual fire, a schedule or a file watch. */
export type TriggerKind = NonNullable<AuditRecordV1["trigger"]>;

/** What every record of one event's runs (or of one triggered run) shares. */
export interface RunOrigin {
  readonly eventId: string;
  readonly event: NativeEvent;
  readonly trigger: TriggerKind;
  /** Which event and matcher, or "manual fire", or the schedule or watch that fired. */
  readonly triggerReason: string;
  /** A triggered run's id: its `running` record and its final one share it. */
  readonly runId?: string;
  /** `sha256:<hex>` of the event (core/text/excerpt.ts). */
  readonly eventDigest?: string;
}

/** The origin of a dispatch: an agent's event, a manual fire, or a trigger of the hook's own. */
export function originOf(
  request: {
    readonly event: NativeEvent;
    readonly manual?: boolean;
    readonly trigger?: { readonly kind: "periodic" | "watch" | "background"; readonly reason: string };
    readonly runId?: string;
    readonly eventDigest?: string;
  },
  eventId: string,
): RunOrigin {
  const { event } = request;
  return {
    eventId,
    event,
    trigger: request.trigger?.kind ?? (request.manual ? "manual" : "event"),
    triggerReason:
      request.trigger?.reason ?? (request.manual ? "manual fire" : `${event.event_type}${event.tool_name ? ` (tool ${event.tool_name})` : ""}`),
    ...(request.runId !== undefined ? { runId: request.runId } : {}),
    ...(request.eventDigest !== undefined ? { eventDigest: request.eventDigest } : {}),
  };
}

/** What the sandbox and the hook API report of one run (chain/invoker.ts's HookRun). */
export interface RunReport {
  readonly outcome: {
    readonly stats: { readonly wallMs: number; readonly cpuMs: number; readonly heapBytes: number; readonly coldStart: boolean };
    readonly logs: readonly LogEntry[];
  };
  readonly hostCalls: readonly HostCallRecord[];
  readonly llmCalls?: readonly LlmCallRecord[];
  readonly steps?: unknown;
}

/** What the chain rules made of it (chain/run-rules.ts's Verdict). */
export interface RunVerdict {
  readonly status: RunStatus;
  readonly reason?: string;
  readonly errorCode?: string;
  readonly action?: HookAction;
  readonly notes: readonly string[];
  readonly injections: AuditRecordV1["injections"];
  readonly logs: readonly LogEntry[];
  readonly followUps?: AuditRecordV1["follow_ups"];
}

/** The records of one origin's runs, each with a fresh id. */
export interface RunRecords {
  /** A hook that ran: its outcome as the chain rules judged it. */
  ran(hookId: string, run: RunReport, verdict: RunVerdict, startedAt: number, phase: "transform" | "check"): AuditRecordV1;
  /** Not run, for a reason that is no failure: a deny before it, its cooldown, a triggered run in flight. */
  skipped(hookId: string, reason: string, at: number): AuditRecordV1;
  /** Could not run through no choice of its own (no slot, the deadline): its on_error applied. */
  notRun(hookId: string, cause: string, errorCode: string, onError: "continue" | "deny", at: number): AuditRecordV1;
  /** Did not load: `why` in a line, every problem in its notes. */
  broken(
    hook: { readonly id: string; readonly problems: readonly Diagnostic[] },
    why: string,
    onError: "continue" | "deny",
    at: number,
  ): AuditRecordV1;
  /** A triggered run still going: readers show the last record of a run_id, so the final one replaces it. */
  running(hookId: string, startedAt: number): AuditRecordV1;
}

type RecordBase = Pick<
  AuditRecordV1,
  "v" | "kind" | "id" | "event_id" | "hook_id" | "event_type" | "session_id" | "trigger_reason" | "trigger" | "run_id" | "event_digest" | "event"
>;

export function runRecords(origin: RunOrigin, newId: () => string): RunRecords {
  // An agent's event is in its decision record; a triggered run's, made by Hookbox, is small.
  const event = origin.trigger === "event" ? undefined : excerpt(origin.event, EVENT_EXCERPT_BYTES);
  const base = (hookId: string): RecordBase => ({
    v: AUDIT_VERSION,
    kind: "run",
    id: newId(),
    event_id: origin.eventId,
    hook_id: hookId,
    event_type: origin.event.event_type,
    session_id: origin.event.session_id,
    trigger_reason: origin.triggerReason,
    trigger: origin.trigger,
    ...(origin.runId !== undefined ? { run_id: origin.runId } : {}),
    ...(origin.eventDigest !== undefined ? { event_digest: origin.eventDigest } : {}),
    ...(event !== undefined ? { event } : {}),
  });
  /** A record of no duration: nothing ran (yet). */
  const instant = (hookId: string, status: AuditRecordV1["status"], at: number, reason?: string): AuditRecordV1 => {
    const time = new Date(at).toISOString();
    return {
      ...base(hookId),
      status,
      ...(reason !== undefined ? { reason } : {}),
      duration_ms: 0,
      started_at: time,
      completed_at: time,
      injections: [],
      host_calls: [],
      logs: [],
    };
  };
  return {
    ran(hookId, run, verdict, startedAt, phase) {
      const duration = run.outcome.stats.wallMs;
      return {
        ...base(hookId),
        status: verdict.status,
        ...(verdict.reason !== undefined ? { reason: verdict.reason } : {}),
        ...(verdict.errorCode ? { error_code: verdict.errorCode } : {}),
        ...(verdict.action ? { action: verdict.action } : {}),
        ...(phase === "transform" ? { phase } : {}),
        duration_ms: Math.round(duration * 1000) / 1000,
        started_at: new Date(startedAt).toISOString(),
        completed_at: new Date(startedAt + duration).toISOString(),
        injections: verdict.injections,
        host_calls: run.hostCalls,
        logs: [...run.outcome.logs, ...verdict.logs],
        ...(verdict.followUps && verdict.followUps.length > 0 ? { follow_ups: verdict.followUps } : {}),
        ...(run.steps ? { steps: excerpt(run.steps, STEPS_EXCERPT_BYTES) } : {}),
        ...(run.llmCalls && run.llmCalls.length > 0 ? { llm: run.llmCalls } : {}),
        stats: { cpu_ms: run.outcome.stats.cpuMs, heap_bytes: run.outcome.stats.heapBytes, cold_start: run.outcome.stats.coldStart },
        ...(verdict.notes.length > 0 ? { notes: verdict.notes } : {}),
      };
    },
    skipped: (hookId, reason, at) => instant(hookId, "skipped", at, reason),
    notRun: (hookId, cause, errorCode, onError, at) => ({
      ...instant(hookId, "skipped", at, cause),
      error_code: errorCode,
      notes: [`on_error: ${onError} applied`],
    }),
    broken: (hook, why, onError, at) => ({
      ...instant(hook.id, "failed", at, `the hook did not load: ${why}`),
      error_code: "hook_broken",
      notes: [`on_error: ${onError} applied`, ...hook.problems.map(formatDiagnostic)],
    }),
    running: (hookId, startedAt) => instant(hookId, "running", startedAt),
  };
}

/** A run record with one more note (an approval's outcome, on the record of the hook that asked). */
export function withNote(record: AuditRecordV1, note: string): AuditRecordV1 {
  return { ...record, notes: [...(record.notes ?? []), note] };
}

const NOT_DELIVERED = "monitor mode (hooks.<id>.mode: monitor): this run decided nothing; the agent got none of its answer";

/**
 * A run record as a monitored hook's: status never `denied` (nothing was), no injections (none
 * were delivered), the mode and the would-be decision set, and a note saying so.
 */
export function monitored(record: AuditRecordV1, would: WouldBe, injections = record.injections.length): AuditRecordV1 {
  const notes = [
    ...(record.notes ?? []).map((note) => (note.startsWith("on_error:") ? `${note.replace(" applied", "")} (not applied: monitor mode)` : note)),
    injections > 0 ? `${NOT_DELIVERED} (${injections} context injection${injections === 1 ? "" : "s"} dropped)` : NOT_DELIVERED,
  ];
  return {
    ...record,
    status: record.status === "denied" ? "completed" : record.status,
    injections: [],
    notes,
    mode: "monitor",
    would,
  };
}

export interface DecisionInput {
  readonly id: string;
  readonly decision: Decision;
  /** What is known of the event (the evaluator's EventHint). */
  readonly event: { readonly sessionId?: string; readonly agent?: string; readonly toolName?: string; readonly subject?: string };
  readonly project: string | undefined;
  readonly snapshot: Pick<RegistrySnapshot, "version" | "hooks" | "broken" | "operatorStatus">;
  readonly servedBy: AuditDecisionV1["served_by"];
  readonly runs: number;
  readonly startedAt: number;
  readonly completedAt: number;
  readonly approval?: AuditDecisionV1["approval"];
  readonly incomplete?: AuditDecisionV1["incomplete"];
  readonly escalation?: AuditDecisionV1["escalation"];
}

/** One event's decision record: written even when no hook matched, so a decision is never unaudited. */
export function decisionRecord(input: DecisionInput): AuditDecisionV1 {
  const { decision, event, snapshot } = input;
  return {
    v: AUDIT_VERSION,
    kind: "decision",
    id: input.id,
    event_id: decision.event_id,
    event_type: decision.event_type,
    session_id: event.sessionId ?? "unknown",
    ...(event.agent ? { agent: event.agent } : {}),
    ...(event.toolName ? { tool_name: event.toolName } : {}),
    ...(event.subject ? { subject: event.subject } : {}),
    ...(input.project !== undefined ? { project: input.project } : {}),
    decision: decision.decision,
    ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
    ...(decision.decided_by !== undefined ? { decided_by: decision.decided_by } : {}),
    ...(input.approval ? { approval: input.approval } : {}),
    ...(input.incomplete ? { incomplete: input.incomplete } : {}),
    ...(input.escalation ? { escalation: input.escalation } : {}),
    ...hintsOf(decision),
    ...(decision.delivered_runs ? { delivered_runs: decision.delivered_runs } : {}),
    hook_set: {
      registry_version: snapshot.version,
      hooks: snapshot.hooks.length,
      broken: snapshot.broken.map((entry) => entry.id),
      operator: snapshot.operatorStatus.state,
    },
    served_by: input.servedBy,
    runs: input.runs,
    duration_ms: input.completedAt - input.startedAt,
    started_at: new Date(input.startedAt).toISOString(),
    completed_at: new Date(input.completedAt).toISOString(),
  };
}

/** The hooks' hints for the caller, when there are any: recorded with the decision. */
function hintsOf(decision: Decision): Pick<AuditDecisionV1, "hints"> {
  const { suggested_abilities, suggested_documents, new_intent, follow_up_actions } = decision;
  const hints = {
    ...(suggested_abilities ? { suggested_abilities } : {}),
    ...(suggested_documents ? { suggested_documents } : {}),
    ...(new_intent ? { new_intent } : {}),
    ...(follow_up_actions ? { follow_up_actions } : {}),
  };
  return Object.keys(hints).length > 0 ? { hints } : {};
}
