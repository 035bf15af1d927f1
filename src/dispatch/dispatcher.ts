import { KiB } from "../../sandbox/index.ts";
import type { NativeEvent } from "../events/types.ts";
import { withLinkTargets, type LinkFiles } from "../registry/link-targets.ts";
import type { RegistrySnapshot } from "../registry/registry.ts";
import { CooldownTracker, Semaphore } from "./concurrency.ts";
import type { HookInvoker } from "./invoker.ts";
import { dispatch, type DispatchResult } from "./pipeline.ts";

export interface DispatcherOptions {
  /** Defaults to the operator's dispatch.concurrency. */
  readonly concurrency?: number;
  /**
   * Where `link_targets` come from (withLinkTargets): the host's file system. Every evaluator
   * that answers agents passes it; without it symbolic links are judged by their own path.
   */
  readonly links?: LinkFiles;
}

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
    private readonly options: DispatcherOptions = {},
  ) {
    this.semaphore = new Semaphore(options.concurrency ?? registry.current().operator.dispatch.concurrency);
  }

  /** The event as hooks and matchers see it: with the real targets of the symbolic links its tool call names. */
  prepare(event: NativeEvent): Promise<NativeEvent> {
    return this.options.links ? withLinkTargets(event, this.options.links) : Promise.resolve(event);
  }

  async handle(received: NativeEvent): Promise<DispatchOutcome> {
    const event = await this.prepare(received);
    const snapshot = this.registry.current();
    return { ...(await dispatch({ event, hooks: snapshot.match(event) }, this.context(snapshot))), registryVersion: snapshot.version };
  }

  /** Run one hook on an event whatever its matcher and cooldown say (manual fire). Undefined: no such hook. */
  async fire(hookId: string, received: NativeEvent): Promise<DispatchOutcome | undefined> {
    const snapshot = this.registry.current();
    const hook = snapshot.get(hookId);
    if (!hook) return undefined;
    const event = await this.prepare(received);
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
