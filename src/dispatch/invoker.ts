import type { HostCallFn, InvocationOutcome, SandboxLimits, HandlerSpec } from "../../sandbox/index.ts";
import type { CapabilityHost, HostCallRecord } from "../capabilities/types.ts";
import type { InjectionRole, NativeEvent } from "../events/types.ts";
import type { LoadedHook } from "../registry/load.ts";

/** Runs handler code: the sandbox pool in the daemon, or an in-process engine (tests, one-shot CLI). */
export interface SandboxExecutor {
  invoke(spec: HandlerSpec, event: unknown, limits: SandboxLimits, call: HostCallFn): Promise<InvocationOutcome>;
}

/** What one hook's run produced: the sandbox outcome and what it did through its hook API. */
export interface HookRun {
  readonly outcome: InvocationOutcome;
  readonly hostCalls: readonly HostCallRecord[];
  readonly injections: readonly { readonly content: string; readonly role: InjectionRole }[];
}

export interface HookInvoker {
  invoke(hook: LoadedHook, event: NativeEvent, limits: SandboxLimits): Promise<HookRun>;
  /** Whether the hook's grants include inject_context (its result's context_injection needs it). */
  mayInjectContext(hook: LoadedHook): boolean;
}

/** Bind a hook's grants to the event, run it, and collect what it did. */
export function createInvoker(executor: SandboxExecutor, capabilities: CapabilityHost): HookInvoker {
  return {
    async invoke(hook, event, limits) {
      const caps = capabilities.forInvocation(hook.grants, event);
      const outcome = await executor.invoke(hook.spec, event, limits, caps.call);
      return { outcome, hostCalls: caps.hostCalls, injections: caps.injections };
    },
    mayInjectContext: (hook) => capabilities.mayInjectContext(hook.grants),
  };
}
