import { KiB } from "../../../sandbox/index.ts";
import type { NativeEvent } from "../../core/events/types.ts";
import type { RegistrySnapshot } from "../../hooks/registry/registry.ts";
import { Semaphore } from "./concurrency.ts";
import { MemoryCooldowns, type CooldownStore } from "./cooldowns.ts";
import type { HookInvoker } from "./invoker.ts";
import { runsInBackground } from "../background.ts";
import type { LoadedHook } from "../../hooks/registry/load.ts";
import { dispatch, type DispatchRequest, type DispatchResult } from "./pipeline.ts";
import { monitoredIds } from "./shadow.ts";

export interface DispatchOutcome extends DispatchResult {
  /** The registry version that answered: every event sees exactly one. */
  readonly registryVersion: number;
  /** Matched hooks left out of the chain to run in the background (background.ts): the caller starts them, or they do not run. */
  readonly background?: readonly LoadedHook[];
}

/** Why a background hook did not run, when the evaluator cannot run it after the answer (no daemon). */
const BACKGROUND_UNAVAILABLE =
  "background: only a daemon runs hooks after the answer (this event was evaluated by emit in its own process); start one (hookbox serve, or daemon.auto_start)";

/**
 * Runs an event's matched hooks against one registry snapshot, with the concurrency cap shared by
 * every event this process evaluates and the cooldowns shared by every process of its data directory.
 */
export class Dispatcher {
  private readonly semaphore: Semaphore;

  constructor(
    private readonly invoker: HookInvoker,
    concurrency: number,
    /** Shared with other processes of the same data directory (the daemon and emit), or this process's memory. */
    private readonly cooldowns: CooldownStore = new MemoryCooldowns(),
  ) {
    this.semaphore = new Semaphore(concurrency);
  }

  async handle(
    event: NativeEvent,
    snapshot: RegistrySnapshot,
    options: {
      /** The evaluator's answer (rule.ts failClosedBy): the dispatcher does not read the operator file's fail_closed itself. */
      readonly failClosed?: boolean;
      readonly rewritable?: boolean;
      readonly outputRewritable?: boolean;
      readonly deadlineMs?: number;
      readonly project?: string;
      readonly eventDigest?: string;
      /** Set when the caller runs background hooks after the answer: the reason their skip records in this event give. */
      readonly backgroundReason?: string;
    } = {},
  ): Promise<DispatchOutcome> {
    const base = this.context(snapshot, options.project);
    const context = {
      ...base,
      eventDeadlineMs: Math.min(base.eventDeadlineMs, options.deadlineMs ?? Number.POSITIVE_INFINITY),
      failClosed: options.failClosed === true,
      rewritable: options.rewritable !== false,
      outputRewritable: options.outputRewritable !== false,
    };
    const matched = snapshot.match(event);
    const background = matched.filter(runsInBackground);
    const request = {
      event,
      hooks: background.length > 0 ? matched.filter((entry) => !runsInBackground(entry)) : matched,
      ...(background.length > 0 ? { deferred: { hooks: background, reason: options.backgroundReason ?? BACKGROUND_UNAVAILABLE } } : {}),
      ...(options.eventDigest ? { eventDigest: options.eventDigest } : {}),
    };
    return { ...(await dispatch(request, context)), registryVersion: snapshot.version, background };
  }

  /**
   * Run one hook on an event whatever its matcher and cooldown say: a manual fire (recorded as the
   * hook's last run), or a trigger of its own whose cooldown the runner claimed. Undefined: no such hook.
   */
  async fire(
    hookId: string,
    event: NativeEvent,
    snapshot: RegistrySnapshot,
    options: { readonly project?: string } & Pick<DispatchRequest, "trigger" | "runId" | "eventId" | "eventDigest"> = {},
  ): Promise<DispatchOutcome | undefined> {
    const hook = snapshot.get(hookId);
    if (!hook) return undefined;
    const { project: _project, ...ids } = options;
    const request: DispatchRequest = { event, hooks: [hook], ...(options.trigger ? {} : { manual: true }), ...ids };
    return { ...(await dispatch(request, this.context(snapshot, options.project))), registryVersion: snapshot.version };
  }

  inFlight(): number {
    return this.semaphore.inUse();
  }

  private context(snapshot: RegistrySnapshot, project: string | undefined) {
    const settings = snapshot.operator.dispatch;
    return {
      invoker: this.invoker,
      semaphore: this.semaphore,
      cooldowns: this.cooldowns,
      ...(project !== undefined ? { project } : {}),
      eventDeadlineMs: settings.event_deadline_ms,
      injectionBudgetBytes: settings.injection_budget_kb * KiB,
      monitored: monitoredIds(snapshot.operator.hooks),
    };
  }
}
