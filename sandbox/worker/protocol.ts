import type { SandboxLimits } from "../limits.ts";
import type { EngineStats } from "../engine/engine.ts";
import type { HandlerSpec, HostCallError, InvocationOutcome } from "../types.ts";

/**
 * Messages between the pool (parent) and a sandbox worker process: one JSON object per line on
 * the worker's stdin/stdout. JSON.stringify never emits a raw newline, so lines frame messages.
 */
export const WORKER_PROTOCOL_VERSION = 1;

/** A spec on the wire: the code travels only the first time a worker needs it. */
export type WireSpec = Omit<HandlerSpec, "handler"> & {
  readonly handler: { readonly filename: string; readonly codeHash: string; readonly code?: string };
};

/** A step on the wire: its host calls travel back tagged with the step's index. */
export interface WireStep {
  readonly spec: WireSpec;
  readonly limits: SandboxLimits;
  readonly tag: unknown;
}

/**
 * Every request is a chain (a single invocation is a chain of one): the worker runs the steps
 * in order, reports each outcome as it comes ("step"), asks its continuation whether to go
 * on, and says "done" at the end.
 */
export type ToWorker =
  | { readonly t: "chain"; readonly id: number; readonly steps: readonly WireStep[]; readonly event: unknown }
  | { readonly t: "host"; readonly id: number; readonly call: number; readonly ok: true; readonly value: unknown }
  | { readonly t: "host"; readonly id: number; readonly call: number; readonly ok: false; readonly error: HostCallError }
  | { readonly t: "evict"; readonly hookIds?: readonly string[] }
  | { readonly t: "stats"; readonly id: number };

export type FromWorker =
  | { readonly t: "ready"; readonly v: number }
  | { readonly t: "call"; readonly id: number; readonly step: number; readonly call: number; readonly name: string; readonly args: readonly unknown[] }
  | { readonly t: "step"; readonly id: number; readonly index: number; readonly outcome: InvocationOutcome }
  | { readonly t: "done"; readonly id: number }
  | { readonly t: "need-code"; readonly id: number }
  | { readonly t: "stats"; readonly id: number; readonly stats: EngineStats };

/** The byte pipe to one worker process, provided by the runtime adapter that spawned it. */
export interface WorkerProcess {
  readonly pid: number | undefined;
  /** Write one message line (the newline is added by the implementation). */
  send(line: string): void;
  onLine(listener: (line: string) => void): void;
  onExit(listener: (exit: { readonly code: number | null; readonly signal: string | null }) => void): void;
  /** The last few KiB the worker wrote to stderr, for diagnostics. */
  stderrTail(): string;
  /** SIGKILL: the only stop that works on a worker stuck inside WebAssembly or SIGSTOPped. */
  kill(): void;
}

/** The worker side of the pipe. */
export interface WorkerIO {
  onLine(listener: (line: string) => void): void;
  onClose(listener: () => void): void;
  write(line: string): void;
}
