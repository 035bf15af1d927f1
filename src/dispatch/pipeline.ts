import { AUDIT_VERSION, type AuditRecordV1 } from "../audit/record.ts";
import { formatDiagnostic } from "../config/diagnostics.ts";
import type { Decision, NativeEvent } from "../events/types.ts";
import type { LoadedHook } from "../registry/load.ts";
import { entryId, entryOnError, isBroken, type BrokenHook, type RegistryEntry } from "../registry/registry.ts";
import { DEADLINE_SLACK_MS } from "./chain.ts";
import type { CooldownTracker, Semaphore } from "./concurrency.ts";
import { decide } from "./decide.ts";
import { InjectionCollector } from "./injections.ts";
import type { HookInvoker } from "./invoker.ts";
import { applyRun, newChainState, type ChainState } from "./run-rules.ts";
import { untrustedMessage } from "./untrusted.ts";

export interface DispatchContext {
  readonly invoker: HookInvoker;
  readonly semaphore: Semaphore;
  readonly cooldowns: CooldownTracker;
  /** Budget for all hooks of one event; hooks not started by then fail by their on_error. */
  readonly eventDeadlineMs: number;
  readonly injectionBudgetBytes: number;
  /** fail_closed: a hook that fails or cannot run denies the event, whatever its own on_error says. */
  readonly failClosed?: boolean;
  readonly now?: () => number;
  readonly newId?: () => string;
}

export interface DispatchRequest {
  readonly event: NativeEvent;
  /** The matched entries, broken ones included, in run order (RegistrySnapshot.match). */
  readonly hooks: readonly RegistryEntry[];
  /** A manual fire (POST /v1/hooks/:id/fire) bypasses cooldown. */
  readonly manual?: boolean;
}

export interface DispatchResult {
  readonly decision: Decision;
  /** One audit record per matched entry, skipped ones included, in run order. */
  readonly records: readonly AuditRecordV1[];
}

type RecordBase = Pick<AuditRecordV1, "v" | "kind" | "id" | "event_id" | "hook_id" | "event_type" | "session_id" | "trigger_reason">;

/**
 * Run an event's matched hooks one after another (DESIGN §5): in run order, a deny stops the
 * chain, a modify changes what the next hook sees, injections are collected with their hook,
 * `continue: false` halts. A hook that cannot run — broken, past the event deadline, no
 * invocation slot, its worker lost — fails by its own on_error, and its record names the cause:
 * a guard that did not run never reads as a guard that allowed.
 */
export async function dispatch(request: DispatchRequest, ctx: DispatchContext): Promise<DispatchResult> {
  const now = ctx.now ?? Date.now;
  const newId = ctx.newId ?? (() => crypto.randomUUID());
  const eventId = newId();
  const deadline = now() + ctx.eventDeadlineMs;
  const injections = new InjectionCollector(ctx.injectionBudgetBytes);
  const state = newChainState(request.event);
  const trigger = request.manual ? "manual fire" : `${request.event.event_type}${request.event.tool_name ? ` (tool ${request.event.tool_name})` : ""}`;
  const records = new Map<RegistryEntry, AuditRecordV1>();
  const base = (entry: RegistryEntry): RecordBase => ({
    v: AUDIT_VERSION,
    kind: "run",
    id: newId(),
    event_id: eventId,
    hook_id: entryId(entry),
    event_type: request.event.event_type,
    session_id: request.event.session_id,
    trigger_reason: trigger,
  });
  const onErrorOf = (entry: RegistryEntry): "continue" | "deny" => (ctx.failClosed ? "deny" : entryOnError(entry));
  /** A hook that did not run through no choice of its own: its on_error applies. */
  const cannotRun = (entry: RegistryEntry, cause: string, code: string): void => {
    const onError = onErrorOf(entry);
    records.set(entry, { ...skipped(base(entry), cause, now()), error_code: code, notes: [`on_error: ${onError} applied`] });
    failByOnError(state, entryId(entry), onError, `${code}: ${cause}`);
  };
  const skip = (entry: RegistryEntry, reason: string): void => void records.set(entry, skipped(base(entry), reason, now()));

  // Cooldown depends on time only; the rest of the chain runs as few sandbox round trips as it can.
  let queue: RegistryEntry[] = [];
  for (const entry of request.hooks) {
    if (isBroken(entry)) {
      queue.push(entry);
      continue;
    }
    const wait = request.manual ? 0 : ctx.cooldowns.remainingMs(entry.definition.id, entry.definition.cooldownMs, now());
    if (wait > 0) skip(entry, `cooldown: ${((entry.definition.cooldownMs - wait) / 1000).toFixed(1)} s since its last run (cooldown_seconds: ${entry.definition.cooldownMs / 1000})`);
    else queue.push(entry);
  }
  const needsSlot = queue.some((entry) => !isBroken(entry));
  const acquired = needsSlot && (await ctx.semaphore.acquire(deadline - now()));
  try {
    while (queue.length > 0) {
      const stopper = state.denied ? `${state.denied.hookId} denied the event` : state.halted ? `${state.halted.hookId} halted the agent (continue: false)` : undefined;
      if (stopper) {
        for (const entry of queue) skip(entry, stopper);
        break;
      }
      const head = queue[0] as RegistryEntry;
      if (isBroken(head)) {
        const onError = onErrorOf(head);
        records.set(head, brokenRecord(base(head), head, onError, now()));
        failByOnError(state, head.id, onError, `it did not load: ${describeProblems(head)}`);
        if (onError === "continue") state.userMessages.push({ hook_id: head.id, level: "warning", message: `Hookbox: hook "${head.id}" did not load and did not run (${describeProblems(head)}). Fix it, then check with: hookbox validate` });
        queue = queue.slice(1);
        continue;
      }
      if (needsSlot && !acquired) {
        cannotRun(head, `no invocation slot became free before the event deadline (dispatch.concurrency ${ctx.semaphore.capacity})`, "dispatch_concurrency");
        queue = queue.slice(1);
        continue;
      }
      if (now() >= deadline - DEADLINE_SLACK_MS) {
        cannotRun(head, `the event deadline (${ctx.eventDeadlineMs} ms, dispatch.event_deadline_ms) was reached before it started`, "dispatch_deadline");
        queue = queue.slice(1);
        continue;
      }
      // The loaded hooks up to the next broken entry run as one chain in one round trip.
      const brokenAt = queue.findIndex(isBroken);
      const pending = (brokenAt < 0 ? queue : queue.slice(0, brokenAt)) as LoadedHook[];
      const startedAt = now();
      for (const hook of pending) ctx.cooldowns.ran(hook.definition.id, startedAt);
      const chain = await ctx.invoker.invokeChain(
        pending.map((hook) => ({ hook, onError: onErrorOf(hook), limits: { ...hook.definition.limits, timeoutMs: Math.max(1, Math.min(hook.definition.limits.timeoutMs, deadline - startedAt)) } })),
        state.event,
        deadline,
      );
      let clock = startedAt;
      chain.runs.forEach((run, index) => {
        const hook = pending[index] as LoadedHook;
        const verdict = applyRun(hook, onErrorOf(hook), run, state, injections, ctx.invoker.mayInjectContext(hook));
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
      queue = queue.slice(chain.runs.length);
      // Otherwise the chain broke (a worker lost mid-chain: resume after it) or stopped at the
      // deadline (the loop fails the rest by their on_error).
    }
  } finally {
    if (acquired) ctx.semaphore.release();
  }
  const ordered = request.hooks.map((entry) => records.get(entry) as AuditRecordV1);
  const untrusted = untrustedMessage(request.hooks.filter((entry): entry is LoadedHook => !isBroken(entry) && records.get(entry)?.status !== "skipped"));
  if (untrusted) state.userMessages.push(untrusted);
  return { decision: decide(eventId, request.event, state, injections, ordered), records: ordered };
}

/** A failure decides by the failing hook's on_error: deny stops the event; continue lets it go on. */
function failByOnError(state: ChainState, hookId: string, onError: "continue" | "deny", why: string): void {
  if (onError === "deny" && !state.denied) state.denied = { hookId, reason: `hook ${hookId} failed (${why}) and is configured on_error: deny` };
}

/** Up to three of a broken hook's problems, each at file:line:col. */
function describeProblems(entry: BrokenHook): string {
  if (entry.problems.length === 0) return `${entry.file}: did not load`;
  const shown = entry.problems.slice(0, 3).map(formatDiagnostic).join("; ");
  const more = entry.problems.length - 3;
  return `${shown}${more > 0 ? ` (and ${more} more problem${more === 1 ? "" : "s"})` : ""}`;
}

function brokenRecord(base: RecordBase, entry: BrokenHook, onError: "continue" | "deny", at: number): AuditRecordV1 {
  const time = new Date(at).toISOString();
  return {
    ...base,
    status: "failed",
    error_code: "hook_broken",
    reason: `the hook did not load: ${describeProblems(entry)}`,
    duration_ms: 0,
    started_at: time,
    completed_at: time,
    injections: [],
    host_calls: [],
    logs: [],
    notes: [`on_error: ${onError} applied`, ...entry.problems.map(formatDiagnostic)],
  };
}

function skipped(base: RecordBase, reason: string, at: number): AuditRecordV1 {
  const time = new Date(at).toISOString();
  return { ...base, status: "skipped", reason, duration_ms: 0, started_at: time, completed_at: time, injections: [], host_calls: [], logs: [] };
}
