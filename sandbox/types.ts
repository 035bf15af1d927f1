import type { SandboxFailure } from "./failure.ts";
import type { SandboxLimits } from "./limits.ts";
import type { CompiledHandler } from "./transpile.ts";

/** One line a handler logged through console.* or hook.log. */
export interface LogEntry {
  readonly level: "debug" | "info" | "warn" | "error";
  readonly message: string;
}

export interface InvocationStats {
  /** Guest CPU time (host calls excluded). */
  readonly cpuMs: number;
  /** Wall time inside the executor, host calls included (queueing and IPC excluded). */
  readonly wallMs: number;
  readonly hostCalls: number;
  /** Size of the hook's WebAssembly heap after the run. */
  readonly heapBytes: number;
  /** True when this run had to create the hook's module or context first. */
  readonly coldStart: boolean;
}

export type InvocationOutcome =
  | { readonly ok: true; readonly value: unknown; readonly logs: readonly LogEntry[]; readonly stats: InvocationStats }
  | { readonly ok: false; readonly failure: SandboxFailure; readonly logs: readonly LogEntry[]; readonly stats: InvocationStats };

/** What a host function may reject with; only these fields cross into the guest. */
export interface HostCallError {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

/**
 * Executes `hook.<name>(...args)` for the guest. Arguments and the resolved value are JSON.
 * `signal` aborts when the invocation ends (finished, failed or killed): long host work
 * (a child process, an HTTP request) must stop then.
 */
export type HostCallFn = (name: string, args: readonly unknown[], signal: AbortSignal) => Promise<unknown>;

/**
 * One handler of a chain: what runs, its limits, its host calls. `tag` is opaque to the
 * sandbox: it is handed to the continuation after the step.
 */
export interface ChainStep {
  readonly spec: HandlerSpec;
  readonly limits: SandboxLimits;
  readonly call: HostCallFn;
  readonly tag: unknown;
}

/**
 * After each step of a chain: stop, or go on with the (possibly changed) event. Supplied by the
 * host that runs the sandbox — the sandbox itself knows no policy.
 */
export type ChainContinuation = (
  tag: unknown,
  outcome: InvocationOutcome,
  event: unknown,
) => { readonly stop: true } | { readonly stop: false; readonly event: unknown };

/** Go on with the same event whatever happens: the continuation of a sandbox used without policy. */
export const continueAlways: ChainContinuation = (_tag, _outcome, event) => ({ stop: false, event });

export interface ChainOutcome {
  /** One per step that ran, in order: fewer than the steps when the continuation stopped the chain or it broke. */
  readonly outcomes: readonly InvocationOutcome[];
  /**
   * The chain ended for a reason of its own (its worker was killed or died, the pool closed):
   * the last outcome says why, and the caller may resume with the steps after it.
   */
  readonly broken: boolean;
}

/** How a handler's context lives: reused across invocations of the same hook, or new each time. */
export type Isolation = "warm" | "fresh";

/**
 * Everything that identifies a loaded handler. Two specs with the same `key` share a warm slot;
 * different hooks never do (the hook id is part of the key).
 */
export interface HandlerSpec {
  readonly id: string;
  readonly handler: CompiledHandler;
  /** Names of the capability methods installed on `hook` (dotted for namespaces: "http.get"). */
  readonly hostFunctions: readonly string[];
  /** Plain JSON data set on `hook` (id, config …), frozen in the guest. */
  readonly hookData: Readonly<Record<string, unknown>>;
  readonly isolation: Isolation;
  readonly key: string;
}
