import { KiB } from "../../sandbox/index.ts";
import type { NativeEvent } from "../events/types.ts";
import type { RegistrySnapshot } from "../registry/registry.ts";
import { CooldownTracker, Semaphore } from "./concurrency.ts";
import type { HookInvoker } from "./invoker.ts";
import { dispatch, type DispatchResult } from "./pipeline.ts";

export interface DispatchOutcome extends DispatchResult {
  /** The registry version that answered: every event sees exactly one. */
  readonly registryVersion: number;
}

/**
 * Runs an event's matched hooks against one registry snapshot, with the concurrency cap and
 * cooldowns shared by every event this process evaluates.
 */
export class Dispatcher {
  private readonly semaphore: Semaphore;
  private readonly cooldowns = new CooldownTracker();

  constructor(
    private readonly invoker: HookInvoker,
    concurrency: number,
  ) {
    this.semaphore = new Semaphore(concurrency);
  }

  async handle(event: NativeEvent, snapshot: RegistrySnapshot, options: { readonly failClosed?: boolean; readonly rewritable?: boolean; readonly deadlineMs?: number } = {}): Promise<DispatchOutcome> {
    const base = this.context(snapshot);
    const context = {
      ...base,
      eventDeadlineMs: Math.min(base.eventDeadlineMs, options.deadlineMs ?? Number.POSITIVE_INFINITY),
      failClosed: options.failClosed === true || snapshot.operator.fail_closed,
      rewritable: options.rewritable !== false,
    };
    return { ...(await dispatch({ event, hooks: snapshot.match(event) }, context)), registryVersion: snapshot.version };
  }

  /** Run one hook on an event whatever its matcher and cooldown say (manual fire). Undefined: no such hook. */
  async fire(hookId: string, event: NativeEvent, snapshot: RegistrySnapshot): Promise<DispatchOutcome | undefined> {
    const hook = snapshot.get(hookId);
    if (!hook) return undefined;
    return { ...(await dispatch({ event, hooks: [hook], manual: true }, this.context(snapshot))), registryVersion: snapshot.version };
  }

  inFlight(): number {
    return this.semaphore.inUse();
  }

  private context(snapshot: RegistrySnapshot) {
    const settings = snapshot.operator.dispatch;
    return {
      invoker: this.invoker,
      semaphore: this.semaphore,
      cooldowns: this.cooldowns,
      eventDeadlineMs: settings.event_deadline_ms,
      injectionBudgetBytes: settings.injection_budget_kb * KiB,
    };
  }
}
