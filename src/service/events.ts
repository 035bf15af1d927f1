// src/service owns evaluating one event end to end: dispatch, approval, audit, metrics.
// The daemon's routes and the in-process `emit` both go through it.
import type { ApprovalOutcome, ApprovalStore } from "../approvals/store.ts";
import type { AuditRecordV1 } from "../audit/record.ts";
/** Where the records of each event go before its answer leaves (the JSONL sink, or memory in tests). */
export interface AuditWriter {
  write(records: readonly AuditRecordV1[]): Promise<void>;
}
import type { Dispatcher, DispatchOutcome } from "../dispatch/dispatcher.ts";
import { HookboxError } from "../errors.ts";
import type { Decision, NativeEvent } from "../events/types.ts";
import type { Metrics } from "../metrics/metrics.ts";

export interface EventServiceDeps {
  readonly dispatcher: Dispatcher;
  readonly audit: AuditWriter;
  readonly metrics?: Metrics;
  /**
   * Where ask_user goes: held here until a user answers (the daemon), or returned as
   * decision "ask" for the agent's own prompt (no store: one-shot emit).
   */
  readonly approvals?: ApprovalStore;
}

export interface Evaluation {
  readonly decision: Decision;
  readonly records: readonly AuditRecordV1[];
  readonly registryVersion: number;
}

export class EventService {
  constructor(private readonly deps: EventServiceDeps) {}

  async evaluate(event: NativeEvent): Promise<Evaluation> {
    return this.finish(event, await this.deps.dispatcher.handle(event));
  }

  /** Run one hook by id, bypassing matcher and cooldown. Undefined when there is no such hook. */
  async fire(hookId: string, event: NativeEvent): Promise<Evaluation | undefined> {
    const outcome = await this.deps.dispatcher.fire(hookId, event);
    return outcome && this.finish(event, outcome);
  }

  private async finish(event: NativeEvent, outcome: DispatchOutcome): Promise<Evaluation> {
    let { decision, records } = outcome;
    if (decision.decision === "ask" && decision.approval && this.deps.approvals) {
      const resolved = await this.resolveApproval(event, decision);
      decision = resolved.decision;
      records = records.map((r) => (r.hook_id === resolved.hookId ? { ...r, notes: [...(r.notes ?? []), resolved.note] } : r));
    }
    try {
      // The answer leaves only once its records are in the audit log.
      await this.deps.audit.write(records);
    } catch (error) {
      throw new HookboxError("audit_unavailable", `${(error as Error).message}; refusing to answer without an audit record`);
    }
    this.deps.metrics?.recordEvent(decision, records);
    return { decision, records, registryVersion: outcome.registryVersion };
  }

  private async resolveApproval(event: NativeEvent, decision: Decision): Promise<{ decision: Decision; hookId: string; note: string }> {
    const approvals = this.deps.approvals as ApprovalStore;
    const request = decision.approval as NonNullable<Decision["approval"]>;
    let outcome: ApprovalOutcome;
    if (approvals.allowedForSession(event, request.hook_id)) {
      outcome = { id: "session-rule", decision: "allow", by: "session-rule" };
    } else {
      const held = approvals.hold(request, event);
      outcome = await held.outcome;
    }
    const reason =
      outcome.by === "timeout"
        ? `approval timed out after ${request.timeout_ms} ms; default: ${outcome.decision}`
        : outcome.by === "session-rule"
          ? "allowed always for this session"
          : outcome.by === "shutdown"
            ? "Hookbox shut down before the approval was answered"
            : `${outcome.decision === "allow" ? "approved" : "denied"} by the user`;
    const { approval: _asked, ...rest } = decision;
    return {
      hookId: request.hook_id,
      note: `approval ${outcome.id}: ${reason}`,
      decision: { ...rest, decision: outcome.decision, reason: outcome.decision === "deny" ? `${request.prompt} — ${reason}` : reason },
    };
  }
}
