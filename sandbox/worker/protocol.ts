import type { SandboxLimits } from "../limits.ts";
import type { EngineStats } from "../engine/engine.ts";
import type { HandlerSpec, HostCallError, InvocationOutcome } from "../types.ts";

/**
 * Messages between the pool (parent) and a sandbox worker process. They are plain JSON values;
 * how they travel (newline-delimited JSON on stdin/stdout, Bun's IPC channel) is the runtime
 * adapter's business (WorkerProcess, WorkerIO).
 */
export const WORKER_PROTOCOL_VERSION = 2;

/** A spec on the wire: the code travels only the first time a worker needs it. */
export type WireSpec = Omit<HandlerSpec, "handler"> & {
  readonly handler: { readonly filename: string; readonly codeHash: string; readonly code?: string; readonly sourceMap?: string };
};

/**
 * A step on the wire. A worker keeps the specs it was sent, so after the first time a step names
 * its spec by `key` only (the spec's key is a hash of everything in it). Its host calls travel
 * back tagged with the step's index.
 */
export interface WireStep {
  readonly key: string;
  /** Present when this worker has not been sent this spec yet (or asked for it again). */
  readonly spec?: WireSpec;
  readonly limits: SandboxLimits;
  readonly tag: unknown;
}

/**
 * Every request is a chain (a single invocation is a chain of one). A worker runs the chains it
 * is sent one at a time, in order; within a chain it runs the steps in order and asks its
 * continuation whether to go on. Each outcome is reported as "step", except the last, which
 * travels in the "done" that ends the chain: a chain of one is one frame each way.
 */
export type ToWorker =
  /**
   * `prepare`: build each step's guest ahead of any event (the handler is not called, `event` is
   * null): every step runs, each reported as usual.
   */
  | { readonly t: "chain"; readonly id: number; readonly steps: readonly WireStep[]; readonly event: unknown; readonly prepare?: true }
  | { readonly t: "host"; readonly id: number; readonly call: number; readonly ok: true; readonly value: unknown }
  | { readonly t: "host"; readonly id: number; readonly call: number; readonly ok: false; readonly error: HostCallError }
  | { readonly t: "evict"; readonly hookIds?: readonly string[] }
  | { readonly t: "stats"; readonly id: number };

export type FromWorker =
  | { readonly t: "ready"; readonly v: number }
  | {
      readonly t: "call";
      readonly id: number;
      readonly step: number;
      readonly call: number;
      readonly name: string;
      readonly args: readonly unknown[];
    }
  | { readonly t: "step"; readonly id: number; readonly index: number; readonly outcome: InvocationOutcome }
  /** The chain ended; `outcome` is its last step's (index = the number of "step" frames before it). */
  | { readonly t: "done"; readonly id: number; readonly outcome: InvocationOutcome }
  /** A step named a spec or code this worker does not hold (never sent, or dropped from its cache): resend in full. */
  | { readonly t: "need-code"; readonly id: number }
  | { readonly t: "stats"; readonly id: number; readonly stats: EngineStats };

/** The message channel to one worker process, provided by the runtime adapter that spawned it. */
export interface WorkerProcess {
  readonly pid: number | undefined;
  /** Send one message (a JSON value). */
  send(message: ToWorker): void;
  /** Every JSON value the worker sent, in order; anything that is not JSON is dropped by the adapter. */
  onMessage(listener: (message: unknown) => void): void;
  onExit(listener: (exit: { readonly code: number | null; readonly signal: string | null }) => void): void;
  /** The last few KiB the worker wrote to stderr, for diagnostics. */
  stderrTail(): string;
  /** SIGKILL: the only stop that works on a worker stuck inside WebAssembly or SIGSTOPped. */
  kill(): void;
  /**
   * CPU time (ms, from any origin) used so far by the worker's thread that runs guest code, read
   * from outside it; undefined when it cannot be read. The pool's backstop for `cpuMs` when the
   * guest keeps QuickJS from polling its interrupt: absent (or undefined) where the platform
   * cannot tell, and then `cpuMs` rests on the interrupt alone.
   */
  cpuTimeMs?(): number | undefined;
}

/** The worker side of the channel. */
export interface WorkerIO {
  onMessage(listener: (message: unknown) => void): void;
  onClose(listener: () => void): void;
  send(message: FromWorker): void;
}
