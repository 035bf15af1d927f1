import type { ChainOutcome, ChainStep, InvocationOutcome, SandboxLimits } from "../../sandbox/index.ts";
import type { CapabilityHost, HostCallRecord } from "../capabilities/types.ts";
import type { InjectionRole, NativeEvent } from "../events/types.ts";
import type { LoadedHook } from "../registry/load.ts";
import type { StepTag } from "./chain.ts";

/** Runs chains of handlers: the sandbox pool in the daemon, or an in-process engine (engineExecutor). */
export interface SandboxExecutor {
  invokeChain(steps: readonly ChainStep[], event: unknown): Promise<ChainOutcome>;
}

/** What one hook's run produced: the sandbox outcome and what it did through its hook API. */
export interface HookRun {
  readonly outcome: InvocationOutcome;
  readonly hostCalls: readonly HostCallRecord[];
  readonly injections: readonly { readonly content: string; readonly role: InjectionRole }[];
}

export interface ChainRun {
  /** One per hook that ran, in order. */
  readonly runs: readonly HookRun[];
  /** The chain ended early for a reason of its own (a worker killed): the next hooks may still run. */
  readonly broken: boolean;
}

export interface HookInvoker {
  /** Run hooks one after another, each with its grants bound to the event, in one sandbox round trip. */
  invokeChain(hooks: readonly { hook: LoadedHook; limits: SandboxLimits; onError: "continue" | "deny" }[], event: NativeEvent, deadlineAt: number): Promise<ChainRun>;
  /** Whether the hook's grants include inject_context (its result's context_injection needs it). */
  mayInjectContext(hook: LoadedHook): boolean;
  /** Whether the hook may rewrite this field of the event (permissions.modify, decided by the operator). */
  mayModify(hook: LoadedHook, field: string): { readonly ok: true } | { readonly ok: false; readonly reason: string };
  /** Whether the hook may rewrite anything: it then runs among the transforms, before the checks. */
  isTransform(hook: LoadedHook): boolean;
}

export function createInvoker(executor: SandboxExecutor, capabilities: CapabilityHost): HookInvoker {
  return {
    async invokeChain(hooks, event, deadlineAt) {
      // ${workspace} comes from cwd, which no modify can change: binding every hook to the
      // incoming event is the same as binding it to the event it will see.
      const bound = hooks.map(({ hook, limits, onError }) => ({ caps: capabilities.forInvocation(hook.grants, event), hook, limits, onError }));
      const steps: ChainStep[] = bound.map(({ caps, hook, limits, onError }) => ({
        spec: hook.spec,
        limits,
        call: caps.call,
        tag: { hookId: hook.definition.id, onError, deadlineAt } satisfies StepTag,
      }));
      const chain = await executor.invokeChain(steps, event);
      const runs = chain.outcomes.map((outcome, index) => {
        const caps = (bound[index] as (typeof bound)[number]).caps;
        return { outcome, hostCalls: caps.hostCalls, injections: caps.injections };
      });
      return { runs, broken: chain.broken };
    },
    mayInjectContext: (hook) => capabilities.mayInjectContext(hook.grants),
    mayModify: (hook, field) => capabilities.mayModify(hook.grants, field),
    isTransform: (hook) => capabilities.isTransform(hook.grants),
  };
}
