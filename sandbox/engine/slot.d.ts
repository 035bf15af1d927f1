import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core";
import { type SandboxFailure } from "../failure.ts";
import type { HandlerSpec } from "../types.ts";
import type { InvocationGuard } from "./guard.ts";
import type { HookModule, QuickJsFactory } from "./quickjs.ts";
/** Live QuickJS objects, counted so tests can assert nothing leaked. */
export interface EngineCounters {
    modules: number;
    runtimes: number;
    contexts: number;
    poisonedModules: number;
}
/** Calls from guest code into the host, routed to the invocation that is running. */
export interface GuestBridge {
    hostCall(context: QuickJSContext, name: string, argsJson: string): QuickJSHandle;
    emitLog(level: string, message: string): void;
    readonly guard: InvocationGuard;
}
/** A context prepared for one handler: the handler function, its `hook`, and the prelude's functions, captured before handler code ran. */
export interface GuestContext {
    readonly runtime: QuickJSRuntime;
    readonly context: QuickJSContext;
    readonly handler: QuickJSHandle;
    readonly hook: QuickJSHandle;
    readonly parse: QuickJSHandle;
    readonly stringify: QuickJSHandle;
    readonly place: QuickJSHandle;
}
export type GuestSetup = {
    readonly ok: true;
    readonly guest: GuestContext;
} | {
    readonly ok: false;
    readonly failure: SandboxFailure;
};
/**
 * One hook's home in the engine: its own WebAssembly instance and, for warm isolation, the
 * context that stays loaded between invocations. The slot owns both and is the only code that
 * disposes them. A module that saw a host-level fault (abort, host stack overflow) is
 * *poisoned*: it is dropped without dispose, which could itself abort (quickjs-emscripten#257).
 */
export declare class HookSlot {
    readonly spec: HandlerSpec;
    readonly memoryBytes: number;
    readonly stackBytes: number;
    private readonly factory;
    private readonly counters;
    private module;
    private guest;
    private bridge;
    private tail;
    private queued;
    constructor(spec: HandlerSpec, memoryBytes: number, stackBytes: number, factory: QuickJsFactory, counters: EngineCounters);
    /** Serialise invocations of this slot: a context runs one invocation at a time. */
    exclusive<T>(fn: () => Promise<T>): Promise<T>;
    /** True while an invocation runs or waits for this slot; a busy slot is never evicted. */
    get busy(): boolean;
    get loadedModule(): HookModule | undefined;
    ensureModule(): Promise<HookModule>;
    /** The warm context, or a new one whose setup (prelude and handler top level) runs under `bridge.guard`. */
    enterGuest(bridge: GuestBridge): GuestSetup & {
        cold: boolean;
    };
    /** End of an invocation: the bridge detaches; a fresh-isolation or failed context is disposed. */
    leaveGuest(keep: boolean): void;
    disposeGuest(): void;
    /** Drop the module without touching it again. */
    poison(): void;
    /**
     * Dispose, asking the sanitizer (debug builds only) whether anything stayed allocated.
     * "discarded": the module was poisoned and dropped, so there is nothing left to check.
     */
    disposeAndCheckLeaks(): "clean" | "leaked" | "discarded" | "unknown";
    dispose(): void;
    private createGuest;
    private describe;
}
