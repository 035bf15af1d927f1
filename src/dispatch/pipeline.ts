import { AUDIT_VERSION, type AuditRecordV1 } from "../audit/record.ts";
import { TOOL_EVENTS } from "../events/names.ts";
import { parseHookResult } from "../events/result.ts";
import {
  WIRE_VERSION,
  type ApprovalRequest,
  type Decision,
  type HookAction,
  type HookResult,
  type NativeEvent,
  type RunStatus,
  type RunSummary,
  type UserMessage,
} from "../events/types.ts";
import type { LoadedHook } from "../registry/load.ts";
import { applyModify, DEADLINE_SLACK_MS } from "./chain.ts";
import type { CooldownTracker, Semaphore } from "./concurrency.ts";
import { InjectionCollector } from "./injections.ts";
import type { HookInvoker, HookRun } from "./invoker.ts";

export interface DispatchContext {
  readonly invoker: HookInvoker;
  readonly semaphore: Semaphore;
  readonly cooldowns: CooldownTracker;
  /** Budget for all hooks of one event; hooks not started by then are skipped. */
  readonly eventDeadlineMs: number;
  readonly injectionBudgetBytes: number;
  readonly now?: () => number;
  readonly newId?: () => string;
}

export interface DispatchRequest {
  readonly event: NativeEvent;
  /** The matched hooks, in run order (RegistrySnapshot.match). */
  readonly hooks: readonly LoadedHook[];
  /** A manual fire (POST /v1/hooks/:id/fire) bypasses cooldown. */
  readonly manual?: boolean;
}

export interface DispatchResult {
  readonly decision: Decision;
  /** One audit record per matched hook, skipped ones included, in run order. */
  readonly records: readonly AuditRecordV1[];
}

interface ChainState {
  event: NativeEvent;
  denied?: { hookId: string; reason: string };
  asked?: ApprovalRequest;
  halted?: { hookId: string; reason: string | undefined };
  modified?: Record<string, unknown>;
  suppressOutput: boolean;
  readonly userMessages: UserMessage[];
  readonly abilities: Set<string>;
  readonly documents: Set<string>;
}

interface Verdict {
  status: RunStatus;
  reason?: string;
  errorCode?: string;
  action?: HookAction;
  notes: string[];
  injections: AuditRecordV1["injections"][number][];
}

/**
 * Run an event's matched hooks one after another (DESIGN §5): ascending priority, a deny stops
 * the chain, a modify changes what the next hook sees, injections are collected with their
 * hook, `continue: false` halts. Deterministic: the same hooks on the same event give the same
 * answer, whatever else runs concurrently.
 */
export async function dispatch(request: DispatchRequest, ctx: DispatchContext): Promise<DispatchResult> {
  const now = ctx.now ?? Date.now;
  const newId = ctx.newId ?? (() => crypto.randomUUID());
  const eventId = newId();
  const deadline = now() + ctx.eventDeadlineMs;
  const injections = new InjectionCollector(ctx.injectionBudgetBytes);
  const state: ChainState = { event: request.event, suppressOutput: false, userMessages: [], abilities: new Set(), documents: new Set() };
  const trigger = request.manual ? "manual fire" : `${request.event.event_type}${request.event.tool_name ? ` (tool ${request.event.tool_name})` : ""}`;
  const records = new Map<LoadedHook, AuditRecordV1>();
  const base = (hook: LoadedHook) => ({
    v: AUDIT_VERSION as typeof AUDIT_VERSION,
    id: newId(),
    event_id: eventId,
    hook_id: hook.definition.id,
    event_type: request.event.event_type,
    session_id: request.event.session_id,
    trigger_reason: trigger,
  });
  const skip = (hook: LoadedHook, reason: string): void => void records.set(hook, skipped(base(hook), reason, now()));

  // Cooldown depends on time only; the rest of the chain runs as one sandbox round trip.
  let pending: LoadedHook[] = [];
  for (const hook of request.hooks) {
    const wait = request.manual ? 0 : ctx.cooldowns.remainingMs(hook.definition.id, hook.definition.cooldownMs, now());
    if (wait > 0) skip(hook, `cooldown: ${((hook.definition.cooldownMs - wait) / 1000).toFixed(1)} s since its last run (cooldown_seconds: ${hook.definition.cooldownMs / 1000})`);
    else pending.push(hook);
  }
  const acquired = pending.length > 0 && (await ctx.semaphore.acquire(deadline - now()));
  if (pending.length > 0 && !acquired) {
    for (const hook of pending) skip(hook, `no invocation slot became free before the event deadline (dispatch.concurrency ${ctx.semaphore.capacity})`);
    pending = [];
  }
  try {
    while (pending.length > 0) {
      if (now() >= deadline - DEADLINE_SLACK_MS) {
        for (const hook of pending) skip(hook, `the event deadline (${ctx.eventDeadlineMs} ms, dispatch.event_deadline_ms) was reached`);
        break;
      }
      const startedAt = now();
      for (const hook of pending) ctx.cooldowns.ran(hook.definition.id, startedAt);
      const chain = await ctx.invoker.invokeChain(
        pending.map((hook) => ({ hook, limits: { ...hook.definition.limits, timeoutMs: Math.max(1, Math.min(hook.definition.limits.timeoutMs, deadline - startedAt)) } })),
        state.event,
        deadline,
      );
      let clock = startedAt;
      chain.runs.forEach((run, index) => {
        const hook = pending[index] as LoadedHook;
        const verdict = applyRun(hook, run, state, injections, ctx.invoker.mayInjectContext(hook));
        const duration = run.outcome.stats.wallMs;
        records.set(hook, {
          ...base(hook),
          status: verdict.status,
          ...(verdict.reason !== undefined ? { reason: verdict.reason } : {}),
          ...(verdict.errorCode ? { error_code: verdict.errorCode } : {}),
          ...(verdict.action ? { action: verdict.action } : {}),
          duration_ms: Math.round(duration * 1000) / 1000,
          started_at: new Date(clock).toISOString(),
          completed_at: new Date(clock + duration).toISOString(),
          injections: verdict.injections,
          host_calls: run.hostCalls,
          logs: run.outcome.logs,
          stats: { cpu_ms: run.outcome.stats.cpuMs, heap_bytes: run.outcome.stats.heapBytes, cold_start: run.outcome.stats.coldStart },
          ...(verdict.notes.length > 0 ? { notes: verdict.notes } : {}),
        });
        clock += duration;
      });
      pending = pending.slice(chain.runs.length);
      const stopper = state.denied ? `${state.denied.hookId} denied the event` : state.halted ? `${state.halted.hookId} halted the agent (continue: false)` : undefined;
      if (stopper) {
        for (const hook of pending) skip(hook, stopper);
        break;
      }
      // Otherwise the chain broke (a worker killed mid-chain: resume after it) or stopped at the deadline (the loop skips the rest).
    }
  } finally {
    if (acquired) ctx.semaphore.release();
  }
  const ordered = request.hooks.map((hook) => records.get(hook) as AuditRecordV1);
  return { decision: decide(eventId, request.event, state, injections, ordered), records: ordered };
}

function skipped(base: Omit<AuditRecordV1, "status" | "duration_ms" | "started_at" | "completed_at" | "injections" | "host_calls" | "logs">, reason: string, at: number): AuditRecordV1 {
  const time = new Date(at).toISOString();
  return { ...base, status: "skipped", reason, duration_ms: 0, started_at: time, completed_at: time, injections: [], host_calls: [], logs: [] };
}

function applyRun(hook: LoadedHook, run: HookRun, state: ChainState, injections: InjectionCollector, mayInject: boolean): Verdict {
  const id = hook.definition.id;
  const verdict: Verdict = { status: "completed", notes: [], injections: [] };
  // Injections made through hook.injectContext were permission-checked by the capability.
  for (const injection of run.injections) keep(injection.content, injection.role);
  if (!run.outcome.ok) return fail(run.outcome.failure.code, run.outcome.failure.message);
  const parsed = parseHookResult(run.outcome.value);
  if (!parsed.ok) return fail("handler_result_invalid", parsed.message);
  const result: HookResult = parsed.result;
  if (result.action === "modify" && !result.data) return fail("handler_result_invalid", "the handler returned action modify without data");

  verdict.action = result.action ?? "continue";
  if (result.context_injection) {
    if (mayInject) keep(result.context_injection, result.context_injection_role ?? "system");
    else verdict.notes.push("context_injection dropped: the hook lacks permissions.inject_context");
  }
  if (result.user_message) state.userMessages.push({ hook_id: id, level: result.user_message_level ?? "info", message: result.user_message });
  for (const message of result.messages_to_user ?? []) state.userMessages.push({ hook_id: id, level: "info", message });
  for (const ability of result.suggested_abilities ?? []) state.abilities.add(ability);
  for (const document of result.suggested_documents ?? []) state.documents.add(document);
  if (result.suppress_output) state.suppressOutput = true;

  switch (result.action) {
    case "deny":
      verdict.status = "denied";
      verdict.reason = result.reason ?? `denied by hook ${id}`;
      state.denied = { hookId: id, reason: verdict.reason };
      break;
    case "modify":
      modify(result.data as Record<string, unknown>, state, verdict);
      break;
    case "ask_user":
      state.asked ??= {
        hook_id: id,
        prompt: result.approval_prompt ?? result.reason ?? `Hook ${id} asks for approval`,
        options: result.approval_options ?? ["allow", "deny"],
        timeout_ms: result.approval_timeout_ms ?? hook.definition.approval.timeoutMs,
        default: result.approval_default ?? hook.definition.approval.default,
      };
      break;
    default:
      if (result.reason) verdict.reason = result.reason;
  }
  if (result.continue === false) state.halted = { hookId: id, reason: result.stop_reason ?? result.reason };
  return verdict;

  function keep(content: string, role: "system" | "user" | "assistant"): void {
    const added = injections.add(id, content, role);
    if (added.kept) verdict.injections.push({ role, ...added.kept });
    if (added.note) verdict.notes.push(added.note);
  }

  function fail(code: string, message: string): Verdict {
    verdict.status = "failed";
    verdict.reason = message;
    verdict.errorCode = code;
    if (hook.definition.onError === "deny") {
      state.denied = { hookId: id, reason: `hook ${id} failed (${code}: ${message}) and is configured on_error: deny` };
    }
    return verdict;
  }
}

function modify(data: Record<string, unknown>, state: ChainState, verdict: Verdict): void {
  const applied = applyModify(state.event, data);
  state.event = applied.event;
  state.modified = TOOL_EVENTS.has(state.event.event_type) ? applied.changes : { ...(state.modified ?? {}), ...applied.changes };
  for (const key of applied.ignored) verdict.notes.push(`modify of ${key} ignored: it identifies the event`);
}

function decide(eventId: string, event: NativeEvent, state: ChainState, injections: InjectionCollector, records: readonly AuditRecordV1[]): Decision {
  const runs: RunSummary[] = records.map((r) => ({
    hook_id: r.hook_id,
    status: r.status,
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
    context_injections: injections.collected,
    user_messages: state.userMessages,
    continue: !state.halted,
    ...(state.halted?.reason ? { stop_reason: state.halted.reason } : {}),
    ...(state.suppressOutput ? { suppress_output: true } : {}),
    ...(state.abilities.size > 0 ? { suggested_abilities: [...state.abilities] } : {}),
    ...(state.documents.size > 0 ? { suggested_documents: [...state.documents] } : {}),
    runs,
  };
}
