import type { QuickJSSyncVariant } from "quickjs-emscripten-core";
import { type SandboxLimits } from "../limits.ts";
import type { ChainContinuation, ChainOutcome, ChainStep, HandlerSpec, HostCallFn, InvocationOutcome } from "../types.ts";
import { type EngineCounters } from "./slot.ts";
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
export declare class SandboxEngine {
    private readonly factory;
    private readonly maxSlots;
    private readonly threadCpuMs;
    private readonly slots;
    private readonly counters;
    private invocations;
    private constructor();
    static create(options: EngineOptions): Promise<SandboxEngine>;
    invoke(spec: HandlerSpec, event: unknown, limits: SandboxLimits, call: HostCallFn): Promise<InvocationOutcome>;
    /** Run steps one after another on an event; `continuation` decides after each. */
    invokeChain(steps: readonly ChainStep[], event: unknown, continuation: ChainContinuation): Promise<ChainOutcome>;
    /**
     * Instantiate a module and run a trivial handler: proves the embedded wasm works, and makes
     * the engine compile QuickJS's hot paths before a real hook's CPU budget is counted.
     */
    selfTest(): Promise<InvocationOutcome>;
    /** Dispose slots of the given hook ids (all slots when omitted), e.g. after a reload. */
    evict(hookIds?: readonly string[]): void;
    /**
     * Dispose every slot and report, per hook, whether its module still holds allocations.
     * Only a sanitizer build (the debug variant) can answer; a release build reports "unknown".
     */
    checkLeaks(): {
        readonly hookId: string;
        readonly verdict: "clean" | "leaked" | "discarded" | "unknown";
    }[];
    stats(): EngineStats;
    dispose(): void;
    private trim;
}
