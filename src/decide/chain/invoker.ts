import type { ChainOutcome, ChainStep, InvocationOutcome, SandboxFailureCode, SandboxLimits } from "../../../sandbox/index.ts";
import type { CapabilityHost, HostCallRecord } from "../../capabilities/types.ts";
import type { LlmCallRecord } from "../../capabilities/llm/record.ts";
import type { InjectionRole, NativeEvent } from "../../core/events/types.ts";
import type { LoadedHook } from "../../hooks/registry/load.ts";
import { runDeclarative, type StepResult } from "../steps/index.ts";
import { continueChain, type StepTag } from "./chain.ts";
import type { CommandRun, GrantedRun } from "./follow-ups.ts";

/** Runs chains of handlers: the sandbox pool in the daemon, or an in-process engine (engineExecutor). */
export interface SandboxExecutor {
  invokeChain(steps: readonly ChainStep[], event: unknown): Promise<ChainOutcome>;
}

/** What one hook's run produced: the sandbox outcome and what it did through its hook API. */
export interface HookRun {
  readonly outcome: InvocationOutcome;
  readonly hostCalls: readonly HostCallRecord[];
  readonly injections: readonly { readonly content: string; readonly role: InjectionRole }[];
  /** Its model calls (hook.llm.complete, a prompt hook): the run record's `llm`. */
  readonly llmCalls?: readonly LlmCallRecord[];
  /** The results of its steps (a declarative hook), in order. */
  readonly steps?: readonly StepResult[];
  /** Set when its conditions decided against a result: the run is recorded skipped, with this reason. */
  readonly skipped?: string;
}

export interface ChainRun {
  /** One per hook that ran, in order. */
  readonly runs: readonly HookRun[];
  /** The chain ended early for a reason of its own (a worker killed): the next hooks may still run. */
  readonly broken: boolean;
}

export interface HookInvoker {
  /** Run hooks one after another, each with its grants bound to the event, in as few sandbox round trips as possible. */
  invokeChain(
    hooks: readonly { hook: LoadedHook; limits: SandboxLimits; onError: "continue" | "deny" }[],
    event: NativeEvent,
    deadlineAt: number,
  ): Promise<ChainRun>;
  /** Whether the hook's grants include inject_context (its result's context_injection needs it). */
  mayInjectContext(hook: LoadedHook): boolean;
  /** Whether the hook may rewrite this field of the event (permissions.modify, decided by the operator). */
  mayModify(hook: LoadedHook, field: string): { readonly ok: true } | { readonly ok: false; readonly reason: string };
  /** Whether the hook may rewrite anything: it then runs among the transforms, before the checks. */
  isTransform(hook: LoadedHook): boolean;
  /** hook.run for this hook on this event, outside the sandbox: its follow-up run_command (follow-ups.ts), with the calls it made. */
  grantedRun(hook: LoadedHook, event: NativeEvent): { readonly run: GrantedRun; readonly hostCalls: readonly HostCallRecord[] };
}

type Invocation = { hook: LoadedHook; limits: SandboxLimits; onError: "continue" | "deny" };

/** A hook whose steps run on the host (a declarative hook, with or without a handler). */
function isDeclarative(hook: LoadedHook): boolean {
  return hook.definition.declarative !== undefined || hook.spec === undefined;
}

export function createInvoker(executor: SandboxExecutor, capabilities: CapabilityHost): HookInvoker {
  /** Handlers only, in one sandbox round trip. */
  const sandboxChain = async (hooks: readonly Invocation[], event: NativeEvent, deadlineAt: number): Promise<ChainRun> => {
    // ${workspace} comes from cwd, which no modify can change: binding every hook to the
    // incoming event is the same as binding it to the event it will see.
    const bound = hooks.map(({ hook, limits, onError }) => ({ caps: capabilities.forInvocation(hook.grants, event), hook, limits, onError }));
    const steps: ChainStep[] = bound.map(({ caps, hook, limits, onError }) => ({
      spec: hook.spec as NonNullable<LoadedHook["spec"]>,
      limits,
      call: caps.call,
      tag: tagOf(hook, onError, deadlineAt),
    }));
    const chain = await executor.invokeChain(steps, event);
    const runs = chain.outcomes.map((outcome, index) => {
      const caps = (bound[index] as (typeof bound)[number]).caps;
      return { outcome, hostCalls: caps.hostCalls, injections: caps.injections, llmCalls: caps.llmCalls };
    });
    return { runs, broken: chain.broken };
  };

  /**
   * A declarative hook: its steps through its own host calls (the same `call` the sandbox would
   * use, so the same permission checks), its conditions, then its result template — or its
   * handler, in the sandbox, with the steps' results in `event.steps`.
   */
  const declarativeRun = async ({ hook, limits, onError }: Invocation, event: NativeEvent, deadlineAt: number): Promise<HookRun | undefined> => {
    const caps = capabilities.forInvocation(hook.grants, event);
    const started = performance.now();
    const declarative = hook.definition.declarative ?? { steps: [], when: [], skipIf: [], then: undefined, prompt: undefined };
    const done = await runDeclarative(declarative, { event, call: caps.call, timeoutMs: limits.timeoutMs, hasHandler: hook.spec !== undefined });
    const run = (outcome: InvocationOutcome, extra: Partial<HookRun> = {}): HookRun => ({
      outcome,
      hostCalls: caps.hostCalls,
      injections: caps.injections,
      llmCalls: caps.llmCalls,
      steps: done.steps,
      ...extra,
    });
    const stats = (): InvocationOutcome["stats"] => ({
      cpuMs: 0,
      wallMs: performance.now() - started,
      hostCalls: caps.hostCalls.length,
      heapBytes: 0,
      coldStart: false,
    });
    if (done.kind === "failed") {
      // capability_denied is not a sandbox failure, but the run record carries its code as it is.
      return run({ ok: false, failure: { code: done.code as SandboxFailureCode, message: done.message }, logs: [], stats: stats() });
    }
    if (done.kind === "skipped") return run({ ok: true, value: undefined, logs: [], stats: stats() }, { skipped: done.reason });
    if (!hook.spec) return run({ ok: true, value: done.result, logs: [], stats: stats() });
    const left = Math.max(1, Math.floor(limits.timeoutMs - (performance.now() - started)));
    const handler = await executor.invokeChain(
      [{ spec: hook.spec, limits: { ...limits, timeoutMs: left }, call: caps.call, tag: tagOf(hook, onError, deadlineAt) }],
      { ...event, steps: done.steps },
    );
    const outcome = handler.outcomes[0];
    if (!outcome) return undefined;
    return run({
      ...outcome,
      stats: { ...outcome.stats, wallMs: performance.now() - started, hostCalls: caps.hostCalls.length },
    } as InvocationOutcome);
  };

  return {
    async invokeChain(hooks, event, deadlineAt) {
      const runs: HookRun[] = [];
      let next = 0;
      while (next < hooks.length) {
        const head = hooks[next] as Invocation;
        if (isDeclarative(head.hook)) {
          const run = await declarativeRun(head, event, deadlineAt);
          if (!run) return { runs, broken: true };
          runs.push(run);
          next++;
          // The rule the worker applies between handlers: a deny, a halt or a failure of an on_error: deny hook stops.
          if (continueChain(tagOf(head.hook, head.onError, deadlineAt), run.outcome, event).stop) return { runs, broken: false };
          continue;
        }
        let end = next;
        while (end < hooks.length && !isDeclarative((hooks[end] as Invocation).hook)) end++;
        const chain = await sandboxChain(hooks.slice(next, end), event, deadlineAt);
        runs.push(...chain.runs);
        if (chain.broken || chain.runs.length < end - next) return { runs, broken: chain.broken };
        next = end;
      }
      return { runs, broken: false };
    },
    mayInjectContext: (hook) => capabilities.mayInjectContext(hook.grants),
    mayModify: (hook, field) => capabilities.mayModify(hook.grants, field),
    isTransform: (hook) => capabilities.isTransform(hook.grants),
    grantedRun(hook, event) {
      const caps = capabilities.forInvocation(hook.grants, event);
      const run: GrantedRun = async (cmd, args, { cwd, timeoutMs }) => {
        const done = new AbortController();
        try {
          return (await caps.call("run", [cmd, args, { timeoutMs, ...(cwd !== undefined ? { cwd } : {}) }], done.signal)) as CommandRun;
        } finally {
          done.abort();
        }
      };
      return { run, hostCalls: caps.hostCalls };
    },
  };
}

function tagOf(hook: LoadedHook, onError: "continue" | "deny", deadlineAt: number): StepTag {
  return { hookId: hook.definition.id, onError, deadlineAt };
}
