/**
 * Per-invocation limits. Units are in the names; every limit is enforced at exactly one layer
 * (noted per field). Defaults are sane for a guard that inspects one event; hooks that run
 * tests or linters raise `timeoutMs`, not `cpuMs` (host calls do not consume guest CPU).
 */
export interface SandboxLimits {
    /**
     * Guest CPU time: time spent executing guest code, host calls excluded. Enforced by the QuickJS
     * interrupt handler and, where the worker's CPU time can be read (Linux), by the pool killing the
     * worker past this + 50 ms (pool/step-watch.ts): QuickJS polls its interrupt too rarely for some guests (F6).
     */
    readonly cpuMs: number;
    /**
     * Guest heap. Enforced by a fixed-maximum WebAssembly.Memory per hook module (hard cap: static
     * data and the C stack plus this) and QuickJS's allocation limit. Limits under ~11 MiB still get
     * the ~11 MiB heap of the module's 16 MiB initial memory; single allocations above them are refused.
     */
    readonly memoryBytes: number;
    /** Guest stack. Enforced by QuickJS; a host stack overflow during guest execution is reported as this limit too. */
    readonly stackBytes: number;
    /** Wall clock for the whole invocation, host calls included. Enforced in the worker and, as a backstop, by killing the worker. */
    readonly timeoutMs: number;
    /** Size of the JSON-serialized result, in UTF-8 bytes. Enforced when the result leaves the guest. */
    readonly resultBytes: number;
    /** Total size of log lines (console.* and hook.log), in UTF-8 bytes. Enforced as lines are emitted. */
    readonly logBytes: number;
    /** Number of host (capability) calls per invocation. Enforced by the bridge. */
    readonly hostCalls: number;
}
export declare const KiB = 1024;
export declare const MiB: number;
export declare const DEFAULT_LIMITS: SandboxLimits;
/**
 * Ceilings no hook may exceed, whatever its YAML says. The stack ceiling is low on purpose: the
 * host's own stack (V8/JSC) overflows before a larger QuickJS stack limit would trip.
 */
export declare const MAX_LIMITS: SandboxLimits;
export declare const MIN_LIMITS: SandboxLimits;
/** Handler source larger than this is refused before transpiling (parse bombs). */
export declare const MAX_SOURCE_BYTES: number;
/**
 * The largest host result (JSON text) the engine copies into a guest: a sixth of its memory
 * limit, because the JSON is copied into the guest's heap and parsed there, so it must fit
 * several times over. The pool checks the same budget before a result reaches the worker.
 */
export declare function hostResultMemoryBudget(limits: Pick<SandboxLimits, "memoryBytes">): number;
export declare function formatBytes(bytes: number): string;
