import type { SandboxLimits } from "../../../sandbox/index.ts";
import { monitored } from "../audit/build.ts";
import type { AuditRecordV1, WouldBe } from "../audit/record.ts";
import type { NativeEvent } from "../../core/events/types.ts";
import type { LoadedHook } from "../../hooks/registry/load.ts";
import { entryId, isBroken, type RegistryEntry } from "../../hooks/registry/registry.ts";
import { DEADLINE_SLACK_MS } from "./chain.ts";
import { InjectionCollector } from "./injections.ts";
import type { HookInvoker } from "./invoker.ts";
import { applyRun, newChainState, type ChainState, type Verdict } from "./run-rules.ts";

/** The monitored hooks of an event (hooks.<id>.mode: monitor), in shadow: what the pipeline lends them. */
export interface ShadowContext {
  readonly invoker: HookInvoker;
  /** The input every enforcing hook judged last: what the agent goes ahead with (if it does). */
  readonly event: NativeEvent;
  readonly deadline: number;
  readonly acquired: boolean;
  readonly injectionBudgetBytes: number;
  readonly now: () => number;
  readonly onErrorOf: (entry: RegistryEntry) => "continue" | "deny";
  /** Whether the caller could apply a rewrite (what a would-be modify is judged against). */
  readonly mayModify: (hook: LoadedHook, field: string) => { readonly ok: true } | { readonly ok: false; readonly reason: string };
  /** Hooks refused by their cooldown, recorded as skipped by the pipeline. */
  readonly claimCooldowns: (hooks: readonly LoadedHook[]) => Promise<Set<LoadedHook>>;
  /** The pipeline's own records of a run, of a broken entry and of a skip: shadow records are these, marked. */
  readonly runRecord: (hook: LoadedHook, run: Parameters<typeof applyRun>[2], verdict: Verdict, startedAt: number) => AuditRecordV1;
  readonly brokenRecord: (entry: Extract<RegistryEntry, { broken: true }>, onError: "continue" | "deny") => AuditRecordV1;
  readonly skipRecord: (entry: RegistryEntry, reason: string) => AuditRecordV1;
  readonly record: (entry: RegistryEntry, value: AuditRecordV1) => void;
}

/**
 * Shadow mode: each monitored hook runs on the event as it stands after the enforcing hooks, on
 * a chain state of its own — so its deny, ask, rewrite, injections, messages or failure change
 * nothing the agent gets (fail_closed and on_error included) — and its record says what it would
 * have done. It runs whatever the enforcing hooks decided: "would it also have blocked this?" is
 * part of what a monitor is for. One hook per round trip, so one's deny cannot stop the next.
 */
export async function runShadows(entries: readonly RegistryEntry[], ctx: ShadowContext): Promise<void> {
  for (const entry of entries) {
    const onError = ctx.onErrorOf(entry);
    if (isBroken(entry)) {
      const reason = `it did not load (${entry.problems[0]?.message ?? "see hookbox validate"})`;
      ctx.record(entry, monitored(ctx.brokenRecord(entry, onError), failedWould(onError, reason)));
      continue;
    }
    if (!ctx.acquired || ctx.now() >= ctx.deadline - DEADLINE_SLACK_MS) {
      const why = ctx.acquired ? "the event deadline was reached before it started" : "no invocation slot became free before the event deadline";
      ctx.record(entry, monitored(ctx.skipRecord(entry, why), failedWould(onError, why)));
      continue;
    }
    if ((await ctx.claimCooldowns([entry])).size > 0) continue;
    const startedAt = ctx.now();
    const limits: SandboxLimits = {
      ...entry.definition.limits,
      timeoutMs: Math.max(1, Math.min(entry.definition.limits.timeoutMs, ctx.deadline - startedAt)),
    };
    const chain = await ctx.invoker.invokeChain([{ hook: entry, onError, limits }], ctx.event, ctx.deadline);
    const run = chain.runs[0];
    if (!run) {
      const why = "its sandbox worker was lost before it answered";
      ctx.record(entry, monitored(ctx.skipRecord(entry, why), failedWould(onError, why)));
      continue;
    }
    const scratch: ChainState = newChainState(ctx.event);
    const verdict = applyRun(entry, onError, run, scratch, new InjectionCollector(ctx.injectionBudgetBytes), {
      mayInject: ctx.invoker.mayInjectContext(entry),
      phase: "transform",
      mayModify: (field) => ctx.mayModify(entry, field),
    });
    const record = ctx.runRecord(entry, run, verdict, startedAt);
    ctx.record(entry, monitored(record, wouldOf(scratch, verdict), verdict.injections.length));
  }
}

/** What the hook's own chain state says it would have done. */
function wouldOf(state: ChainState, verdict: Verdict): WouldBe {
  if (state.denied) return { decision: "deny", reason: state.denied.reason };
  if (state.asked) return { decision: "ask", reason: state.asked.prompt };
  if (state.modified) return { decision: "modify", ...(verdict.reason !== undefined ? { reason: verdict.reason } : {}) };
  return { decision: "allow", ...(verdict.reason !== undefined ? { reason: verdict.reason } : {}) };
}

function failedWould(onError: "continue" | "deny", why: string): WouldBe {
  return onError === "deny"
    ? { decision: "deny", reason: `it could not run (${why}) and is on_error: deny` }
    : { decision: "allow", reason: `it could not run (${why}); on_error: continue` };
}

/** The ids of the hooks the operator runs in shadow mode. */
export function monitoredIds(hooks: Readonly<Record<string, { readonly mode?: "enforce" | "monitor" }>>): ReadonlySet<string> {
  return new Set(Object.entries(hooks).flatMap(([id, settings]) => (settings.mode === "monitor" ? [id] : [])));
}

export function isMonitored(monitoredSet: ReadonlySet<string> | undefined, entry: RegistryEntry): boolean {
  return monitoredSet?.has(entryId(entry)) === true;
}
