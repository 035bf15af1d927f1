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
 * The one entry point for evaluating events: takes the registry snapshot current at arrival,
 * matches, and runs the pipeline with the shared concurrency cap and cooldowns.
 */
export class Dispatcher {
  private readonly semaphore: Semaphore;
  private readonly cooldowns = new CooldownTracker();

  constructor(
    private readonly registry: { current(): RegistrySnapshot },
    private readonly invoker: HookInvoker,
    concurrency = registry.current().operator.dispatch.concurrency,
  ) {
    this.semaphore = new Semaphore(concurrency);
  }

  async handle(event: NativeEvent): Promise<DispatchOutcome> {
    const snapshot = this.registry.current();
    return { ...(await dispatch({ event, hooks: snapshot.match(event) }, this.context(snapshot))), registryVersion: snapshot.version };
  }

  /** Run one hook on an event whatever its matcher and cooldown say (manual fire). Undefined: no such hook. */
  async fire(hookId: string, event: NativeEvent): Promise<DispatchOutcome | undefined> {
    const snapshot = this.registry.current();
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
