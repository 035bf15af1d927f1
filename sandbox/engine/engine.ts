import type { QuickJSSyncVariant } from "quickjs-emscripten-core";
import { DEFAULT_LIMITS, MiB, type SandboxLimits } from "../limits.ts";
import { slotKey } from "../spec.ts";
import type { ChainContinuation, ChainOutcome, ChainStep, HandlerSpec, HostCallFn, InvocationOutcome } from "../types.ts";
import { prepareSlot, runInvocation } from "./invocation.ts";
import { QuickJsFactory } from "./quickjs.ts";
import { HookSlot, type EngineCounters } from "./slot.ts";

/**
 * Warm slots kept per worker. An event's chain runs every matching hook in one worker, and with
 * more hooks than slots the least recently used eviction drops each slot just before it is
 * needed again (at 64, a 100-hook chain started all 100 cold on every event: ~8 ms each). A warm
 * slot holds ~0.55 MiB resident (measured: a worker with 100 warm slots is ~54 MiB above one with one); the pool's workers are few.
 */
const DEFAULT_MAX_SLOTS = 256;

export interface EngineOptions {
  readonly wasmBytes: Uint8Array;
  /** JS glue matching the bytes; the release build by default (tests use the debug build for leak checks). */
  readonly variant?: QuickJSSyncVariant;
  /** Idle slots kept warm; the least recently used beyond this are disposed. */
  readonly maxSlots?: number;
  /** Extra heap per module beyond its limit (only the sanitizer of the debug build needs it). */
  readonly heapHeadroomBytes?: number;
  /** `wasmBytes` already being compiled (compileQuickJs), started while the caller loaded its code. */
  readonly compiling?: Promise<WebAssembly.Module>;
  /** This thread's CPU time in ms, where the runtime can read it: cpu_ms is judged by it on a busy machine (InvocationGuard). */
  readonly threadCpuMs?: () => number | undefined;
}

export interface EngineStats extends EngineCounters {
  readonly slots: number;
  readonly invocations: number;
}

/**
 * Runs handlers in-process: one slot (a QuickJS instance) per hook, reused while warm.
 * This is what a sandbox worker process hosts; tests and `hookbox run` may also use it
 * directly, without the outer kill a worker gives.
 */
export class SandboxEngine {
  private readonly slots = new Map<string, HookSlot>();
  private readonly counters: EngineCounters = { modules: 0, runtimes: 0, contexts: 0, poisonedModules: 0 };
  private invocations = 0;

  private constructor(
    private readonly factory: QuickJsFactory,
    private readonly maxSlots: number,
    private readonly threadCpuMs: (() => number | undefined) | undefined,
  ) {}

  static async create(options: EngineOptions): Promise<SandboxEngine> {
    const factory = await QuickJsFactory.create(options.wasmBytes, options.variant, options.heapHeadroomBytes, options.compiling);
    return new SandboxEngine(factory, options.maxSlots ?? DEFAULT_MAX_SLOTS, options.threadCpuMs);
  }

  invoke(spec: HandlerSpec, event: unknown, limits: SandboxLimits, call: HostCallFn): Promise<InvocationOutcome> {
    const key = slotKey(spec, limits.memoryBytes, limits.stackBytes);
    let slot = this.slots.get(key);
    if (slot) this.slots.delete(key);
    else slot = new HookSlot(spec, limits.memoryBytes, limits.stackBytes, this.factory, this.counters);
    this.slots.set(key, slot); // most recently used last
    this.invocations++;
    const active = slot;
    return active.exclusive(async () => {
      try {
        return await runInvocation(active, event, limits, call, this.threadCpuMs);
      } finally {
        this.trim();
      }
    });
  }

  /**
   * Build this hook's slot ahead of any event (prepareSlot): the first event then finds it warm.
   * A slot already warm is left as it is.
   */
  prepare(spec: HandlerSpec, limits: SandboxLimits): Promise<InvocationOutcome> {
    const key = slotKey(spec, limits.memoryBytes, limits.stackBytes);
    let slot = this.slots.get(key);
    if (slot) this.slots.delete(key);
    else slot = new HookSlot(spec, limits.memoryBytes, limits.stackBytes, this.factory, this.counters);
    this.slots.set(key, slot);
    const active = slot;
    return active.exclusive(async () => {
      try {
        return await prepareSlot(active, limits, this.threadCpuMs);
      } finally {
        this.trim();
      }
    });
  }

  /** Run steps one after another on an event; `continuation` decides after each. */
  async invokeChain(steps: readonly ChainStep[], event: unknown, continuation: ChainContinuation): Promise<ChainOutcome> {
    const outcomes: InvocationOutcome[] = [];
    let current = event;
    for (const [index, step] of steps.entries()) {
      const outcome = await this.invoke(step.spec, current, step.limits, step.call);
      outcomes.push(outcome);
      if (index === steps.length - 1) break;
      const next = continuation(step.tag, outcome, current);
      if (next.stop) break;
      current = next.event;
    }
    return { outcomes, broken: false };
  }

  /**
   * Instantiate a module and run a trivial handler: proves the embedded wasm works, and makes
   * the engine compile QuickJS's hot paths before a real hook's CPU budget is counted.
   */
  async selfTest(): Promise<InvocationOutcome> {
    const spec: HandlerSpec = {
      id: "hookbox:self-test",
      handler: { filename: "hookbox:self-test", code: "export default (event) => ({ sum: event.a + event.b })", codeHash: "self-test" },
      hostFunctions: [],
      hookData: {},
      isolation: "fresh",
      key: "hookbox:self-test",
    };
    let outcome: InvocationOutcome | undefined;
    for (let i = 0; i < 3; i++)
      outcome = await this.invoke(spec, { a: 1, b: 1 }, { ...DEFAULT_LIMITS, memoryBytes: 4 * MiB }, () =>
        Promise.reject(new Error("no host calls")),
      );
    this.evict([spec.id]);
    this.invocations -= 3;
    if (!outcome?.ok || (outcome.value as { sum?: unknown }).sum !== 2) {
      throw new Error(`QuickJS self-test failed: ${JSON.stringify(outcome && !outcome.ok ? outcome.failure : outcome?.value)}`);
    }
    return outcome;
  }

  /** Dispose slots of the given hook ids (all slots when omitted), e.g. after a reload. */
  evict(hookIds?: readonly string[]): void {
    for (const [key, slot] of this.slots) {
      if ((!hookIds || hookIds.includes(slot.spec.id)) && !slot.busy) {
        slot.dispose();
        this.slots.delete(key);
      }
    }
  }

  /**
   * Dispose every slot and report, per hook, whether its module still holds allocations.
   * Only a sanitizer build (the debug variant) can answer; a release build reports "unknown".
   */
  checkLeaks(): { readonly hookId: string; readonly verdict: "clean" | "leaked" | "discarded" | "unknown" }[] {
    const report = [...this.slots.values()].map((slot) => ({ hookId: slot.spec.id, verdict: slot.disposeAndCheckLeaks() }));
    this.slots.clear();
    return report;
  }

  stats(): EngineStats {
    return { ...this.counters, slots: this.slots.size, invocations: this.invocations };
  }

  dispose(): void {
    this.evict();
  }

  private trim(): void {
    for (const [key, slot] of this.slots) {
      if (this.slots.size <= this.maxSlots) return;
      if (slot.busy) continue;
      slot.dispose();
      this.slots.delete(key);
    }
  }
}
