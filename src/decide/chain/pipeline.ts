import { originOf, runRecords } from "../audit/build.ts";
import type { AuditRecordV1 } from "../audit/record.ts";
import { formatDiagnostic } from "../../hooks/config/diagnostic.ts";
import type { Decision, NativeEvent } from "../../core/events/types.ts";
import type { LoadedHook } from "../../hooks/registry/load.ts";
import { entryId, entryOnError, isBroken, type BrokenHook, type RegistryEntry } from "../../hooks/registry/registry.ts";
import { DEADLINE_SLACK_MS } from "./chain.ts";
import type { Semaphore } from "./concurrency.ts";
import { cooldownKey, type CooldownStore } from "./cooldowns.ts";
import { decide } from "./decide.ts";
import { settleFollowUps } from "./follow-ups.ts";
import { InjectionCollector } from "./injections.ts";
import type { HookInvoker } from "./invoker.ts";
import { applyRun, newChainState, OUTPUT_FIELD, type ChainState, type Phase } from "./run-rules.ts";
import { isMonitored, runShadows } from "./shadow.ts";
import { untrustedMessage } from "./untrusted.ts";

export interface DispatchContext {
  readonly invoker: HookInvoker;
  readonly semaphore: Semaphore;
  readonly cooldowns: CooldownStore;
  /** Whose hooks these are: cooldowns are kept per project (undefined: an event naming no project). */
  readonly project?: string;
  /** Budget for all hooks of one event; hooks not started by then fail by their on_error. */
  readonly eventDeadlineMs: number;
  readonly injectionBudgetBytes: number;
  /** fail_closed: a hook that fails or cannot run denies the event, whatever its own on_error says. */
  readonly failClosed?: boolean;
  /**
   * Whether the caller can apply a rewrite of this event (Cursor's beforeShellExecution cannot,
   * nor any dialect without an updated input): when it cannot, every modify is refused, so the
   * checks judge what will really run.
   */
  readonly rewritable?: boolean;
  /** Hooks in shadow mode (hooks.<id>.mode: monitor): they run on their own, and nothing they return reaches the caller. */
  readonly monitored?: ReadonlySet<string>;
  /** Whether the caller can apply a rewrite of the tool's output (Claude Code's PostToolUse updatedToolOutput, a native caller); default yes. */
  readonly outputRewritable?: boolean;
  readonly now?: () => number;
  readonly newId?: () => string;
}

export interface DispatchRequest {
  readonly event: NativeEvent;
  /** The matched entries, broken ones included, in run order (RegistrySnapshot.match). */
  readonly hooks: readonly RegistryEntry[];
  /** A manual fire (POST /v1/hooks/:id/fire, hookbox fire) bypasses the cooldown and records the run. */
  readonly manual?: boolean;
  /**
   * What started the run when it is not an agent's event (a trigger of the hook's own): the
   * trigger runner has claimed the cooldown already.
   */
  readonly trigger?: { readonly kind: "periodic" | "watch" | "background"; readonly reason: string };
  /**
   * Matched hooks the operator lets run in the background (hooks.<id>.background): not run in this
   * event's chain, recorded skipped with this reason (where their run goes, or why it cannot run).
   */
  readonly deferred?: { readonly hooks: readonly LoadedHook[]; readonly reason: string };
  /** A triggered run's id (its `running` record and its final one share it). */
  readonly runId?: string;
  /** The event's id when the caller needs it before the records exist (a `running` record). */
  readonly eventId?: string;
  /** `sha256:<hex>` of the event (core/text/excerpt.ts), computed by the caller. */
  readonly eventDigest?: string;
}

export interface DispatchResult {
  readonly decision: Decision;
  /** The audit records of the event's runs, in run order: one per matched entry, two for a transform run again as a check. */
  readonly records: readonly AuditRecordV1[];
}

/**
 * Run an event's matched hooks in two passes, so that **guards see what will run**: first the
 * transforms — hooks the operator lets rewrite fields (permissions.modify) — one after another,
 * each on what the last one wrote; then the checks — every matched hook that has not yet seen
 * the final input — on that final input, a deny stopping the chain. A modify in the check pass,
 * or one the hook may not make, is refused and recorded: no input reaches the agent that every
 * hook able to deny has not evaluated and allowed. A hook that cannot run — broken, past the
 * event deadline, no invocation slot, its worker lost — fails by its own on_error, and its record
 * names the cause: a guard that did not run never reads as a guard that allowed.
 */
export async function dispatch(request: DispatchRequest, ctx: DispatchContext): Promise<DispatchResult> {
  const now = ctx.now ?? Date.now;
  const newId = ctx.newId ?? (() => crypto.randomUUID());
  const eventId = request.eventId ?? newId();
  const deadline = now() + ctx.eventDeadlineMs;
  const injections = new InjectionCollector(ctx.injectionBudgetBytes);
  const state = newChainState(request.event);
  const build = runRecords(originOf(request, eventId), newId);
  const records = new Map<RegistryEntry, AuditRecordV1[]>();
  const record = (entry: RegistryEntry, value: AuditRecordV1): void => void records.set(entry, [...(records.get(entry) ?? []), value]);
  const onErrorOf = (entry: RegistryEntry): "continue" | "deny" => (ctx.failClosed ? "deny" : entryOnError(entry));
  /** A hook that did not run through no choice of its own: its on_error applies. */
  const cannotRun = (entry: RegistryEntry, cause: string, code: string): void => {
    const onError = onErrorOf(entry);
    record(entry, build.notRun(entryId(entry), cause, code, onError, now()));
    failByOnError(state, entryId(entry), onError, `${code}: ${cause}`);
  };
  const skip = (entry: RegistryEntry, reason: string): void => record(entry, build.skipped(entryId(entry), reason, now()));

  const runnable = request.hooks.filter((entry) => !isMonitored(ctx.monitored, entry));
  const shadows = request.hooks.filter((entry) => isMonitored(ctx.monitored, entry));
  const loaded = runnable.filter((entry): entry is LoadedHook => !isBroken(entry));
  /**
   * Claim the cooldowns of hooks about to run for the first time in this event (a check that
   * re-judges a rewrite claims nothing): the ones refused are skipped. A manual fire records its
   * run whatever the cooldown; a trigger's runner claimed it already.
   */
  const claimCooldowns = async (hooks: readonly LoadedHook[]): Promise<Set<LoadedHook>> => {
    if (request.trigger) return new Set();
    const first = hooks.filter((hook) => !records.has(hook) && (request.manual || hook.definition.cooldownMs > 0));
    if (first.length === 0) return new Set();
    const claims = first.map((hook) => ({ key: cooldownKey(ctx.project, hook.definition.id), cooldownMs: hook.definition.cooldownMs }));
    const claimed = await ctx.cooldowns.claim(claims, now(), { bypass: request.manual === true });
    const refused = new Set<LoadedHook>();
    first.forEach((hook, index) => {
      const wait = claimed.refused.get((claims[index] as { key: string }).key);
      if (!wait) return;
      refused.add(hook);
      skip(
        hook,
        `cooldown: ${((hook.definition.cooldownMs - wait.remainingMs) / 1000).toFixed(1)} s since its last run (cooldown_seconds: ${hook.definition.cooldownMs / 1000})`,
      );
    });
    return refused;
  };
  const acquired = (loaded.length > 0 || shadows.some((entry) => !isBroken(entry))) && (await ctx.semaphore.acquire(deadline - now()));
  /** Hooks whose follow-ups were settled in this event. */
  const settled = new Set<LoadedHook>();
  /** Which version of the input each hook last judged: 0 is the input as it came, each applied rewrite adds one. */
  const seen = new Map<LoadedHook, number>();
  let version = 0;

  /** Run these hooks on the current input, in order, as few sandbox round trips as possible. */
  const pass = async (queue: RegistryEntry[], phase: Phase): Promise<void> => {
    while (queue.length > 0) {
      const stopper = state.denied
        ? `${state.denied.hookId} denied the event`
        : state.halted
          ? `${state.halted.hookId} halted the agent (continue: false)`
          : undefined;
      if (stopper) {
        for (const entry of queue) skip(entry, stopper);
        return;
      }
      const head = queue[0] as RegistryEntry;
      if (isBroken(head)) {
        const onError = onErrorOf(head);
        record(head, build.broken(head, describeProblems(head), onError, now()));
        failByOnError(state, head.id, onError, `it did not load: ${describeProblems(head)}`);
        if (onError === "continue")
          state.userMessages.push({
            hook_id: head.id,
            level: "warning",
            message: `Hookbox: hook "${head.id}" did not load and did not run (${describeProblems(head)}). Fix it, then check with: hookbox validate`,
          });
        queue = queue.slice(1);
        continue;
      }
      if (!acquired) {
        cannotRun(
          head,
          `no invocation slot became free before the event deadline (dispatch.concurrency ${ctx.semaphore.capacity})`,
          "dispatch_concurrency",
        );
        queue = queue.slice(1);
        continue;
      }
      if (now() >= deadline - DEADLINE_SLACK_MS) {
        cannotRun(
          head,
          `the event deadline (${ctx.eventDeadlineMs} ms, dispatch.event_deadline_ms) was reached before it started`,
          "dispatch_deadline",
        );
        queue = queue.slice(1);
        continue;
      }
      // Checks up to the next broken entry run as one chain in one round trip; a transform runs
      // alone, so the host decides on its rewrite before the next hook sees anything.
      const brokenAt = queue.findIndex(isBroken);
      const upTo = phase === "transform" ? 1 : brokenAt < 0 ? queue.length : brokenAt;
      const cooling = await claimCooldowns(queue.slice(0, upTo) as LoadedHook[]);
      if (cooling.size > 0) {
        queue = queue.filter((entry) => !cooling.has(entry as LoadedHook));
        continue;
      }
      const pending = queue.slice(0, upTo) as LoadedHook[];
      const startedAt = now();
      const budgets = timeBudgets(queue, deadline - startedAt);
      const chain = await ctx.invoker.invokeChain(
        pending.map((hook, index) => ({
          hook,
          onError: onErrorOf(hook),
          limits: { ...hook.definition.limits, timeoutMs: budgets[index] as number },
        })),
        state.event,
        deadline,
      );
      let clock = startedAt;
      for (const [index, ran] of chain.runs.entries()) {
        let run = ran;
        const hook = pending[index] as LoadedHook;
        seen.set(hook, version);
        const before = state.event;
        const verdict = applyRun(hook, onErrorOf(hook), run, state, injections, {
          mayInject: ctx.invoker.mayInjectContext(hook),
          phase,
          mayModify: (field) =>
            field === OUTPUT_FIELD
              ? ctx.outputRewritable === false
                ? {
                    ok: false,
                    reason: `the agent cannot apply a rewrite of the output of ${request.event.event_type} (the model would see the original)`,
                  }
                : ctx.invoker.mayModify(hook, field)
              : ctx.rewritable === false
                ? { ok: false, reason: `the agent cannot apply a rewrite of ${request.event.event_type} (it would run the original input)` }
                : ctx.invoker.mayModify(hook, field),
        });
        if (state.event !== before) version++;
        if (verdict.followUpActions.length > 0 && !settled.has(hook)) {
          // Once per event (a transform judged again as a check returns them again), in what is left of its timeout.
          settled.add(hook);
          const granted = ctx.invoker.grantedRun(hook, before);
          const budgetMs = Math.min(hook.definition.limits.timeoutMs - run.outcome.stats.wallMs, deadline - DEADLINE_SLACK_MS - now());
          verdict.followUps = await settleFollowUps(verdict.followUpActions, granted.run, budgetMs, now);
          run = { ...run, hostCalls: [...run.hostCalls, ...granted.hostCalls] };
        }
        record(hook, build.ran(entryId(hook), run, verdict, clock, phase));
        clock += run.outcome.stats.wallMs;
      }
      queue = queue.slice(chain.runs.length);
      // Otherwise the chain broke (a worker lost mid-chain: resume after it) or stopped at the
      // deadline (the loop fails the rest by their on_error).
    }
  };

  try {
    const transforms = loaded.filter((hook) => ctx.invoker.isTransform(hook));
    if (transforms.length > 0) await pass([...transforms], "transform");
    // The checks: every hook (and broken entry) that has not judged the final input. A transform
    // that failed or could not run has had its on_error applied already.
    const checks = runnable.filter((entry) => {
      const last = records.get(entry)?.at(-1);
      return !last || (last.status === "completed" && seen.get(entry as LoadedHook) !== version);
    });
    await pass(checks, "check");
    if (shadows.length > 0)
      await runShadows(shadows, {
        invoker: ctx.invoker,
        event: state.event,
        deadline,
        acquired,
        injectionBudgetBytes: ctx.injectionBudgetBytes,
        now,
        onErrorOf,
        mayModify: (hook, field) =>
          ctx.rewritable === false
            ? { ok: false, reason: `the agent cannot apply a rewrite of ${request.event.event_type}` }
            : ctx.invoker.mayModify(hook, field),
        claimCooldowns,
        runRecord: (hook, run, verdict, startedAt) => build.ran(entryId(hook), run, verdict, startedAt, "check"),
        brokenRecord: (entry, onError) => build.broken(entry, describeProblems(entry), onError, now()),
        skipRecord: (entry, reason) => build.skipped(entryId(entry), reason, now()),
        record,
      });
  } finally {
    if (acquired) ctx.semaphore.release();
  }
  for (const hook of request.deferred?.hooks ?? []) skip(hook, request.deferred?.reason as string);
  const ordered = [...request.hooks, ...(request.deferred?.hooks ?? [])].flatMap((entry) => records.get(entry) ?? []);
  const untrusted = untrustedMessage(
    request.hooks.filter(
      (entry): entry is LoadedHook => !isBroken(entry) && (records.get(entry) ?? []).some((record) => record.status !== "skipped"),
    ),
  );
  if (untrusted) state.userMessages.push(untrusted);
  return { decision: decide(eventId, request.event, state, injections, ordered), records: ordered };
}

/**
 * What each hook of a queue may take of the time left: its own timeout, or — when the queue's
 * timeouts add up to more than is left — its share of what is left, in proportion to its timeout.
 * So no hook can use up another's time: one that needs more than its share fails itself (its
 * own on_error), and every hook after it still gets its own share.
 */
export function timeBudgets(queue: readonly RegistryEntry[], leftMs: number): number[] {
  const timeouts = queue.map((entry) => (isBroken(entry) ? 0 : entry.definition.limits.timeoutMs));
  const total = timeouts.reduce((sum, t) => sum + t, 0);
  const scale = total <= leftMs ? 1 : Math.max(0, leftMs) / total;
  return timeouts.filter((_, index) => !isBroken(queue[index] as RegistryEntry)).map((t) => Math.max(1, Math.floor(t * scale)));
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
