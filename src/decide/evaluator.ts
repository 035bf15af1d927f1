import type { AnsweredVia, ApprovalOutcome, ApprovalStore } from "./approvals/store.ts";
import { decisionRecord, originOf, runRecords, withNote } from "./audit/build.ts";
import type { AuditDecisionV1, AuditEntry, AuditRecordV1 } from "./audit/record.ts";
import { BUILD_ID } from "../core/version/index.ts";
import type { CapabilityHost } from "../capabilities/types.ts";
import { MemoryCooldowns, type CooldownStore } from "./chain/cooldowns.ts";
import { Dispatcher, type DispatchOutcome } from "./chain/dispatcher.ts";
import type { DispatchRequest } from "./chain/pipeline.ts";
import { createInvoker, type SandboxExecutor } from "./chain/invoker.ts";
import { errorMessage } from "../core/errors.ts";
import { subjectOf } from "../core/events/subject.ts";
import type { Decision, NativeEvent } from "../core/events/types.ts";
import type { Metrics } from "./metrics/metrics.ts";
import { withLinkTargets, type LinkFiles } from "../hooks/registry/link-targets.ts";
import { withHookboxBinaries, type HookboxBinaries } from "./hookbox-binaries.ts";
import type { RegistrySnapshot } from "../hooks/registry/registry.ts";
import type { HookSets, ProjectHookSet } from "./hook-sets.ts";
import { describeOperatorProblems } from "./operator-source.ts";
import { delivered, DELIVERY_EVENTS, type PendingInjections } from "./pending.ts";
import { BackgroundResults, resultOf, withBackground } from "./background.ts";
import type { LoadedHook } from "../hooks/registry/load.ts";
import {
  denialKey,
  escalatedAsk,
  escalatedDenial,
  ESCALATED_EVENTS,
  MemoryDenials,
  withWarning,
  type DenialStore,
  type EscalationNote,
} from "./escalation.ts";
import { applyRule, failClosedBy, ruleDecision, type FailClosed, type Incomplete, type RuleAnswer } from "./rule.ts";
import { noun, plural } from "../core/text/plural.ts";

/** Where the records of each event go before its answer leaves (the JSONL sink, or memory in tests). */
export interface AuditWriter {
  write(records: readonly AuditEntry[]): Promise<void>;
}

export interface EvaluatorOptions {
  readonly hookSets: HookSets;
  readonly executor: SandboxExecutor;
  readonly capabilities: CapabilityHost;
  readonly audit: AuditWriter;
  /** Who answers: recorded in every decision record. */
  readonly servedBy: { readonly via: "daemon" | "emit" | "test" | "replay"; readonly pid: number };
  /** Global cap on hook chains running at once (the operator's dispatch.concurrency when the evaluator starts). */
  readonly concurrency: number;
  /** When each hook last ran (cooldowns): the data directory's file for the daemon and emit, memory otherwise. */
  readonly cooldowns?: CooldownStore;
  /** Held approvals for native clients and orchestrators (the daemon); without it, an ask is returned as "ask". */
  readonly approvals?: ApprovalStore;
  readonly metrics?: Metrics;
  /** Where loud failures go besides the answer (the daemon's log, emit's stderr). */
  readonly log?: (line: string) => void;
  readonly newId?: () => string;
  /**
   * The host's files, to add `link_targets` (where the symbolic links a tool call names lead)
   * before anything matches: without them a link is judged by its own name.
   */
  readonly links?: LinkFiles;
  /** The user's home directory: where a Bash command's `~/…` writes are resolved for `link_targets`. */
  readonly home?: string;
  /** The paths that lead to the Hookbox binary the agents' entries run: `hookbox_binaries` on PreToolUse events, for self-protect. */
  readonly binaries?: HookboxBinaries;
  /** Context of triggered runs waiting for an agent's event in their project (the daemon's). */
  readonly pending?: PendingInjections;
  /** Denied tool calls per session, for the operator's escalation: the data directory's file for the daemon and emit, memory otherwise. */
  readonly denials?: DenialStore;
}

/** A run of one hook that no agent asked for: its schedule, a watch, or a manual fire. */
export interface TriggeredRun {
  readonly project: string | undefined;
  readonly hookId: string;
  readonly event: NativeEvent;
  /** Absent: a manual fire (the cooldown is bypassed and the run recorded as the last). */
  readonly trigger?: NonNullable<DispatchRequest["trigger"]>;
  readonly runId: string;
  readonly eventId: string;
  readonly eventDigest: string;
}

export interface EvaluateOptions {
  /** The caller's --fail-closed. */
  readonly failClosed?: boolean;
  /** How long the caller waits for the answer: a held approval times out before it. */
  readonly callerTimeoutMs?: number;
  /**
   * Hold an ask for a person to answer (an orchestrator on the HTTP API). Agents are never held:
   * the ones with a permission prompt get their own ask at once, the others the block their
   * adapter makes of an ask — the same whether a daemon or emit answers.
   */
  readonly holdApprovals?: boolean;
  /** Whether the caller applies a rewritten input (the agent's dialect says, per event); default yes. */
  readonly rewritable?: boolean;
  /** Whether the caller applies a rewritten tool output (Claude Code's PostToolUse; the agent's dialect says); default yes. */
  readonly outputRewritable?: boolean;
  /** The path the calling `hookbox emit` was invoked as (the agent's entry runs it): protected for this event too. */
  readonly invokedAs?: string;
  /**
   * Called once the event's hook set is known, before any hook runs (also for an event that cannot
   * be evaluated): emit starts the daemon here, so it boots while this event's own hooks run.
   */
  readonly onHookSet?: (set: ProjectHookSet, event: { readonly eventType?: string; readonly sessionId?: string }) => void;
}

/** What is known of an event that could not be decoded: enough to find its project and its event type. */
export interface EventHint {
  readonly cwd?: string;
  readonly eventType?: string;
  readonly sessionId?: string;
  readonly agent?: string;
  readonly toolName?: string;
  readonly subject?: string;
}

export interface Evaluation {
  readonly decision: Decision;
  /** The event's run records and its decision record, as written to the audit log. */
  readonly records: readonly AuditRecordV1[];
  readonly decisionRecord: AuditDecisionV1;
  /** Set when the event could not be fully evaluated: what the rule answered (the agent adapters answer with it). */
  readonly incomplete?: RuleAnswer;
  readonly project: string | undefined;
}

/** Background runs (background.ts) in flight at once in one daemon; more are recorded skipped. */
const MAX_BACKGROUND_IN_FLIGHT = 4;

/** Approvals held for a caller, and the event's hooks, end this long before it gives up: it reads their answer rather than its own timeout. */
const CALLER_MARGIN_MS = 2000;

/**
 * The one evaluator (DESIGN §8): the daemon's routes, `emit` without a daemon and `hookbox test`
 * all answer through it. It resolves the event's hook set from its project, runs it, applies the
 * fail-closed rule when the event cannot be fully evaluated, holds approvals for native callers,
 * and writes one audit record per hook run and one per decision before the answer leaves. An
 * audit log that cannot be written does not turn a decision into a failure: the answer is still
 * given, the failure is loud, and fail_closed makes it deny.
 */
export class Evaluator {
  private readonly dispatcher: Dispatcher;
  private readonly newId: () => string;
  private readonly denials: DenialStore;
  /** Results of background runs waiting for their session's next event (only a daemon, which has `pending`, runs them). */
  private readonly background = new BackgroundResults();
  private backgroundInFlight = 0;
  /** When each hook last ran: shared with the trigger runner, which claims schedules' runs in it. */
  readonly cooldowns: CooldownStore;

  constructor(private readonly options: EvaluatorOptions) {
    this.cooldowns = options.cooldowns ?? new MemoryCooldowns();
    this.dispatcher = new Dispatcher(createInvoker(options.executor, options.capabilities), options.concurrency, this.cooldowns);
    this.newId = options.newId ?? (() => crypto.randomUUID());
    this.denials = options.denials ?? new MemoryDenials();
  }

  get pending(): PendingInjections | undefined {
    return this.options.pending;
  }

  /**
   * Run one hook for a trigger (src/serve/triggers) or a manual fire of a triggered hook: its records go
   * to the audit log (no decision record: no agent waits on it). Undefined when the project's
   * hook set has no such hook (any more).
   */
  async runTriggered(run: TriggeredRun): Promise<{ decision: Decision; records: readonly AuditRecordV1[] } | undefined> {
    const { snapshot } = await this.options.hookSets.forProject(run.project);
    const outcome = await this.dispatcher.fire(run.hookId, run.event, snapshot, {
      ...(run.project !== undefined ? { project: run.project } : {}),
      ...(run.trigger ? { trigger: run.trigger } : {}),
      runId: run.runId,
      eventId: run.eventId,
      eventDigest: run.eventDigest,
    });
    if (!outcome) return undefined;
    await this.writeRecords(outcome.records);
    return { decision: outcome.decision, records: outcome.records };
  }

  /** Records of triggered runs (a `running` one, a skip): a log that cannot be written is said, not thrown. */
  async writeRecords(records: readonly AuditEntry[]): Promise<void> {
    try {
      await this.options.audit.write(records);
    } catch (error) {
      this.options.log?.(
        `Hookbox could not write its audit log (${errorMessage(error)}): ${plural(records.length, "record")} of triggered runs ${noun(records.length, "is")} not recorded. Check the data directory (hookbox doctor).`,
      );
    }
  }

  get hookSets(): HookSets {
    return this.options.hookSets;
  }

  inFlight(): number {
    return this.dispatcher.inFlight();
  }

  async evaluate(received: NativeEvent, options: EvaluateOptions = {}): Promise<Evaluation> {
    const started = Date.now();
    const { event, set } = await this.prepare(received, options.invokedAs);
    options.onHookSet?.(set, { eventType: event.event_type, sessionId: event.session_id });
    const failClosed = failClosedBy(set.snapshot.operator, options.failClosed);
    if (set.snapshot.operatorStatus.state === "unusable")
      return this.incomplete(set, hintOf(event), { code: "operator_unusable", cause: "its operator file is invalid" }, failClosed, started);
    // Every hook must have run before the caller gives up (an agent that times out a hook goes ahead).
    let deadlineMs = options.callerTimeoutMs !== undefined ? Math.max(100, options.callerTimeoutMs - CALLER_MARGIN_MS) : undefined;
    const escalation = await this.escalationOf(set, event);
    if (escalation?.answer === "deny") {
      const decision = escalatedDenial(this.newId(), event.event_type, escalation);
      return this.finish({ set, event: hintOf(event), decision, records: [], started, failClosed, escalation });
    }
    if (escalation?.answer === "slow") {
      // Slowed, never past the agent's own hook timeout: the hooks keep at least half of what is left.
      const waitMs = Math.min(set.snapshot.operator.escalation?.slow_ms ?? 0, deadlineMs !== undefined ? Math.floor(deadlineMs / 2) : Infinity);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      if (deadlineMs !== undefined) deadlineMs -= waitMs;
    }
    const outcome: DispatchOutcome = await this.dispatcher.handle(event, set.snapshot, {
      failClosed: failClosed !== undefined,
      rewritable: options.rewritable !== false,
      outputRewritable: options.outputRewritable !== false,
      ...(deadlineMs !== undefined ? { deadlineMs } : {}),
      ...(set.project !== undefined ? { project: set.project } : {}),
      ...(this.options.pending ? { backgroundReason: "background: runs after this answer; its result reaches this session's next event" } : {}),
    });
    const session = denialKey(set.project, event.session_id);
    let decision = this.withDelivered(this.withOperatorNotice(outcome.decision, set.snapshot), set);
    if (this.options.pending && DELIVERY_EVENTS.has(event.event_type))
      decision = withBackground(decision, this.background.take(session, ESCALATED_EVENTS.has(event.event_type), Date.now()));
    if (escalation) decision = escalation.answer === "ask" ? escalatedAsk(decision, escalation) : withWarning(decision, escalation);
    let records = outcome.records;
    let approval: AuditDecisionV1["approval"];
    if (decision.decision === "ask" && decision.approval && options.holdApprovals && this.options.approvals) {
      const resolved = await this.resolveApproval(event, decision, options);
      decision = resolved.decision;
      approval = resolved.approval;
      records = records.map((r) => (r.hook_id === resolved.approval.hook_id ? withNote(r, resolved.note) : r));
    }
    const evaluation = await this.finish({
      set,
      event: hintOf(event),
      decision,
      records,
      started,
      failClosed,
      ...(approval ? { approval } : {}),
      ...(escalation ? { escalation } : {}),
    });
    if (evaluation.decision.decision === "deny" && set.snapshot.operator.escalation && ESCALATED_EVENTS.has(event.event_type))
      await this.denials.add(session, Date.now());
    // After the answer is written: the event is never held for them.
    if (this.options.pending)
      for (const hook of outcome.background ?? []) void this.runBackground(hook, event, set, session, evaluation.decision.event_id);
    return evaluation;
  }

  /** One background run (background.ts): its records to the audit log, its result queued for the session's next event. */
  private async runBackground(hook: LoadedHook, event: NativeEvent, set: ProjectHookSet, session: string, startedBy: string): Promise<void> {
    const hookId = hook.definition.id;
    const runId = this.newId();
    const trigger = { kind: "background" as const, reason: `background run after ${event.event_type} (event ${startedBy})` };
    // Background runs share the sandbox workers with the agents' events: a few at a time, never all of them.
    if (this.backgroundInFlight >= MAX_BACKGROUND_IN_FLIGHT) {
      const why = `background: ${MAX_BACKGROUND_IN_FLIGHT} background runs already in flight; this one did not run`;
      this.options.log?.(`hook ${hookId}: ${why}`);
      await this.writeRecords([runRecords(originOf({ event, trigger, runId }, this.newId()), this.newId).skipped(hookId, why, Date.now())]);
      return;
    }
    this.backgroundInFlight++;
    try {
      const outcome = await this.dispatcher.fire(hookId, event, set.snapshot, {
        ...(set.project !== undefined ? { project: set.project } : {}),
        trigger,
        runId,
        eventId: this.newId(),
      });
      if (!outcome) return;
      await this.writeRecords(outcome.records);
      const result = resultOf(outcome.decision, hookId, runId, event.event_type, Date.now());
      if (result) this.background.add(session, result);
    } catch (error) {
      this.options.log?.(`the background run of hook ${hookId} failed: ${errorMessage(error)}`);
    } finally {
      this.backgroundInFlight--;
    }
  }

  /**
   * The operator's escalation for a tool call of a session that has had its denials: what to
   * answer, or undefined (no escalation set, another event, fewer denials so far).
   */
  private async escalationOf(set: ProjectHookSet, event: NativeEvent): Promise<EscalationNote | undefined> {
    const settings = set.snapshot.operator.escalation;
    if (!settings || !ESCALATED_EVENTS.has(event.event_type)) return undefined;
    const denials = await this.denials.count(denialKey(set.project, event.session_id));
    if (denials < settings.after_denials) return undefined;
    this.options.log?.(
      `escalation: session ${event.session_id} has ${denials} denied tool calls (after_denials ${settings.after_denials}): ${settings.answer}`,
    );
    return { denials, after_denials: settings.after_denials, answer: settings.answer };
  }

  /** Run one hook by id, bypassing matcher and cooldown. Undefined when the event's project has no such hook. */
  async fire(hookId: string, received: NativeEvent): Promise<Evaluation | undefined> {
    const started = Date.now();
    const { event, set } = await this.prepare(received);
    const outcome = await this.dispatcher.fire(hookId, event, set.snapshot, set.project !== undefined ? { project: set.project } : {});
    if (!outcome) return undefined;
    return this.finish({
      set,
      event: hintOf(event),
      decision: outcome.decision,
      records: outcome.records,
      started,
      failClosed: failClosedBy(set.snapshot.operator, false),
    });
  }

  /**
   * The event as hooks and matchers see it (with the real targets of the symbolic links its tool
   * call names) and the hook set that answers it, looked up side by side: the set depends on the
   * event's cwd alone, which resolving links leaves as it is, and both wait on the file system.
   */
  private async prepare(received: NativeEvent, invokedAs?: string): Promise<{ event: NativeEvent; set: ProjectHookSet }> {
    const linked = async (): Promise<NativeEvent> =>
      withHookboxBinaries(
        this.options.links ? await withLinkTargets(received, this.options.links, this.options.home) : received,
        this.options.binaries,
        invokedAs,
      );
    const [event, set] = await Promise.all([linked(), this.options.hookSets.forEvent(received)]);
    return { event, set };
  }

  /**
   * An event that cannot be evaluated as such (undecodable, over a size limit): the rule decides,
   * over the hooks of the project the hint names (or the user's hooks when it names none).
   */
  async evaluateIncomplete(hint: EventHint, incomplete: Incomplete, options: EvaluateOptions = {}): Promise<Evaluation> {
    const started = Date.now();
    const set = await this.options.hookSets.forEvent({ cwd: hint.cwd }).catch(() => this.options.hookSets.forProject(undefined));
    options.onHookSet?.(set, { ...(hint.eventType ? { eventType: hint.eventType } : {}), ...(hint.sessionId ? { sessionId: hint.sessionId } : {}) });
    return this.incomplete(set, hint, incomplete, failClosedBy(set.snapshot.operator, options.failClosed), started);
  }

  private async incomplete(
    set: ProjectHookSet,
    hint: EventHint,
    incomplete: Incomplete,
    failClosed: FailClosed | undefined,
    started: number,
  ): Promise<Evaluation> {
    const answer = applyRule(set.snapshot, hint.eventType, incomplete, failClosed);
    this.options.log?.(
      `could not evaluate ${hint.eventType ?? "an event"}: ${incomplete.cause}; ${answer.block ? "denied" : "allowed"} (${answer.rule})`,
    );
    const decision = ruleDecision(this.newId(), hint.eventType, answer);
    const evaluation = await this.finish({
      set,
      event: hint,
      decision,
      records: [],
      started,
      failClosed,
      incomplete: { ...incomplete, rule: answer.rule },
    });
    // An audit failure under fail_closed can still turn the rule's go-ahead into a block.
    return { ...evaluation, incomplete: { ...answer, block: evaluation.decision.decision === "deny" } };
  }

  private async finish(input: {
    set: ProjectHookSet;
    event: EventHint;
    decision: Decision;
    records: readonly AuditRecordV1[];
    started: number;
    failClosed: FailClosed | undefined;
    incomplete?: AuditDecisionV1["incomplete"];
    approval?: AuditDecisionV1["approval"];
    escalation?: EscalationNote;
  }): Promise<Evaluation> {
    const { set, event, records } = input;
    let decision = input.decision;
    const record = decisionRecord({
      id: this.newId(),
      decision,
      event,
      project: set.project,
      snapshot: set.snapshot,
      servedBy: { ...this.options.servedBy, build: BUILD_ID },
      runs: records.length,
      startedAt: input.started,
      completedAt: Date.now(),
      ...(input.approval ? { approval: input.approval } : {}),
      ...(input.incomplete ? { incomplete: input.incomplete } : {}),
      ...(input.escalation ? { escalation: input.escalation } : {}),
    });
    try {
      // The answer leaves only once its records are in the audit log.
      await this.options.audit.write([...records, record]);
    } catch (error) {
      decision = this.auditFailed(decision, errorMessage(error), input.failClosed);
    }
    this.options.metrics?.recordEvent(decision, records);
    return { decision, records, decisionRecord: record, project: set.project };
  }

  /** The audit log failed: still answer, say so to the person, and deny when fail_closed. */
  private auditFailed(decision: Decision, cause: string, failClosed: FailClosed | undefined): Decision {
    const message = `Hookbox could not write its audit log (${cause}); this decision is not recorded. Check the data directory (hookbox doctor).`;
    this.options.log?.(message);
    if (failClosed && decision.decision !== "deny") {
      return {
        ...decision,
        decision: "deny",
        reason: `${message} Blocked because Hookbox runs fail-closed (${failClosed.by}).`,
        decided_by: "hookbox",
      };
    }
    return { ...decision, user_messages: [...decision.user_messages, { hook_id: "hookbox", level: "error", message }] };
  }

  /**
   * Context that triggered runs of this project queued (src/decide/pending.ts), added to an
   * event whose answer carries context and that goes ahead, each with a line saying where it
   * comes from; what the event's injection budget cannot take waits for the next event.
   */
  private withDelivered(decision: Decision, set: ProjectHookSet): Decision {
    const pending = this.options.pending;
    if (!pending || decision.decision === "deny" || !DELIVERY_EVENTS.has(decision.event_type) || pending.size(set.project) === 0) return decision;
    const budget =
      set.snapshot.operator.dispatch.injection_budget_kb * 1024 -
      decision.context_injections.reduce((sum, item) => sum + new TextEncoder().encode(item.content).byteLength, 0);
    const taken = pending.take(set.project, budget, Date.now());
    if (taken.length === 0) return decision;
    return {
      ...decision,
      context_injections: [...decision.context_injections, ...taken.map(delivered)],
      delivered_runs: taken.map((item) => ({ hook_id: item.hook_id, run_id: item.run_id, trigger: item.trigger })),
    };
  }

  /** A daemon serving a last good operator file says so on every answer, until the file is fixed. */
  private withOperatorNotice(decision: Decision, snapshot: RegistrySnapshot): Decision {
    if (snapshot.operatorStatus.state !== "last-good") return decision;
    const message = `Hookbox's operator file is invalid (${describeOperatorProblems(snapshot.operatorStatus.problems)}); the last valid version stays in force until it is fixed (check it with: hookbox validate).`;
    return { ...decision, user_messages: [...decision.user_messages, { hook_id: "hookbox", level: "warning", message }] };
  }

  private async resolveApproval(
    event: NativeEvent,
    decision: Decision,
    options: EvaluateOptions,
  ): Promise<{ decision: Decision; approval: NonNullable<AuditDecisionV1["approval"]>; note: string }> {
    const approvals = this.options.approvals as ApprovalStore;
    const asked = decision.approval as NonNullable<Decision["approval"]>;
    const timeoutMs =
      options.callerTimeoutMs !== undefined ? Math.max(1, Math.min(asked.timeout_ms, options.callerTimeoutMs - CALLER_MARGIN_MS)) : asked.timeout_ms;
    const request = { ...asked, timeout_ms: timeoutMs };
    let outcome: ApprovalOutcome;
    if (approvals.allowedForSession(event, request.hook_id)) {
      outcome = { id: "session-rule", decision: "allow", by: "session-rule" };
    } else {
      outcome = await approvals.hold(request, event).outcome;
    }
    const reason =
      outcome.by === "timeout"
        ? `approval timed out after ${request.timeout_ms} ms; default: ${outcome.decision}`
        : outcome.by === "session-rule"
          ? "allowed always for this session"
          : outcome.by === "shutdown"
            ? "Hookbox shut down before the approval was answered"
            : `${outcome.decision === "allow" ? (outcome.always ? "approved for the rest of the session" : "approved") : "denied"} by the user${outcome.via ? ` (${viaWords(outcome.via, outcome.decision)})` : ""}`;
    const { approval: _asked, ...rest } = decision;
    return {
      approval: {
        id: outcome.id,
        hook_id: request.hook_id,
        decision: outcome.decision,
        by: outcome.by,
        ...(outcome.via ? { via: outcome.via } : {}),
        ...(outcome.always ? { always: true } : {}),
      },
      note: `approval ${outcome.id}: ${reason}`,
      decision: { ...rest, decision: outcome.decision, reason: outcome.decision === "deny" ? `${request.prompt} — ${reason}` : reason },
    };
  }
}

function viaWords(via: AnsweredVia, decision: "allow" | "deny"): string {
  return via === "cli" ? `hookbox ${decision === "allow" ? "approve" : "deny"}` : via === "console" ? "the web console" : "the HTTP API";
}

function hintOf(event: NativeEvent): EventHint {
  return {
    ...(event.cwd ? { cwd: event.cwd } : {}),
    eventType: event.event_type,
    sessionId: event.session_id,
    ...(typeof event.agent === "string" ? { agent: event.agent } : {}),
    ...(event.tool_name ? { toolName: event.tool_name } : {}),
    ...(event.tool_name || event.prompt !== undefined ? { subject: subjectOf(event, 200) } : {}),
  };
}
