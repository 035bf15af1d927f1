import type { EngineStats } from "../engine/engine.ts";
import type { SandboxLimits } from "../limits.ts";
import { type KilledStep } from "./step-watch.ts";
import type { FromWorker, ToWorker, WorkerProcess } from "../worker/protocol.ts";
/** "stopping": killed by the pool as surplus (idle too long), not yet exited. */
export type WorkerState = "starting" | "idle" | "busy" | "stopping" | "dead";
/** Why the pool killed a worker: "cpu" and "timeout" are the running step's limits. */
export type KillReason = "timeout" | "cpu" | "close" | "start" | "idle";
/**
 * The parent's view of one worker process: its state, what it has loaded (for routing and to
 * send specs and code only once), the chains sent to it in order (the first is running), and a
 * typed message channel over the process.
 */
export declare class WorkerHandle<J = unknown> {
    readonly process: WorkerProcess;
    readonly onMessage: (worker: WorkerHandle<J>, message: FromWorker) => void;
    state: WorkerState;
    invocations: number;
    /** When the worker last became idle (performance.now()), for reaping surplus workers. */
    idleSince: number;
    /** Chains sent and not yet done, in the order the worker runs them; the first is running. */
    readonly jobs: J[];
    /** Slot keys this worker has run: a hint for routing a hook to a worker that has it warm. */
    readonly warmSlots: Set<string>;
    /** Spec keys and code hashes already sent to this worker. */
    readonly knownSpecs: Set<string>;
    readonly knownCode: Set<string>;
    /** Why the pool killed this worker, if it did. */
    killedFor: KillReason | undefined;
    /** Set when a step's limit (timeout, cpu) killed the worker. */
    killedStep: KilledStep | undefined;
    private watch;
    private readonly statsWaiters;
    private nextStatsId;
    constructor(process: WorkerProcess, onMessage: (worker: WorkerHandle<J>, message: FromWorker) => void);
    get pid(): number | undefined;
    send(message: ToWorker): void;
    kill(reason: KillReason): void;
    /** Watch the step that starts now: its timeout and its CPU budget (StepWatch). */
    watchStep(limits: SandboxLimits, graceMs: number): void;
    /** The running step ended (or the worker did). */
    unwatchStep(): void;
    /** Ask the worker for its engine counters; undefined if it does not answer in time. */
    stats(timeoutMs: number): Promise<EngineStats | undefined>;
}
