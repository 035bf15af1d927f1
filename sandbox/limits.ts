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

export const KiB = 1024;
export const MiB = 1024 * KiB;

export const DEFAULT_LIMITS: SandboxLimits = Object.freeze({
  cpuMs: 500,
  memoryBytes: 32 * MiB,
  stackBytes: 256 * KiB,
  timeoutMs: 10_000,
  resultBytes: 256 * KiB,
  logBytes: 64 * KiB,
  hostCalls: 200,
});

/**
 * Ceilings no hook may exceed, whatever its YAML says. The stack ceiling is low on purpose: the
 * host's own stack (V8/JSC) overflows before a larger QuickJS stack limit would trip.
 */
export const MAX_LIMITS: SandboxLimits = Object.freeze({
  cpuMs: 60_000,
  memoryBytes: 512 * MiB,
  stackBytes: 1 * MiB,
  timeoutMs: 15 * 60_000,
  resultBytes: 8 * MiB,
  logBytes: 1 * MiB,
  hostCalls: 10_000,
});

export const MIN_LIMITS: SandboxLimits = Object.freeze({
  cpuMs: 1,
  memoryBytes: 1 * MiB,
  stackBytes: 32 * KiB,
  timeoutMs: 1,
  resultBytes: 1 * KiB,
  logBytes: 0,
  hostCalls: 0,
});

/** Handler source larger than this is refused before transpiling (parse bombs). */
export const MAX_SOURCE_BYTES = 1 * MiB;

/**
 * The largest host result (JSON text) the engine copies into a guest: a sixth of its memory
 * limit, because the JSON is copied into the guest's heap and parsed there, so it must fit
 * several times over. The pool checks the same budget before a result reaches the worker.
 */
export function hostResultMemoryBudget(limits: Pick<SandboxLimits, "memoryBytes">): number {
  return Math.floor(limits.memoryBytes / 6);
}

export function formatBytes(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= MiB) return `${(bytes / MiB).toFixed(1)} MiB`;
  if (bytes >= KiB && bytes % KiB === 0) return `${bytes / KiB} KiB`;
  if (bytes >= KiB) return `${(bytes / KiB).toFixed(1)} KiB`;
  return `${bytes} B`;
}
