import type { EngineStats } from "../engine/engine.ts";
import type { SandboxLimits } from "../limits.ts";
import type { ChainOutcome, ChainStep, HandlerSpec, HostCallFn, InvocationOutcome } from "../types.ts";
import { type PoolOptions } from "./options.ts";
export type { PoolOptions } from "./options.ts";
export interface PoolStats {
    /** Workers alive now (starting, idle or busy). */
    readonly size: number;
    readonly minWorkers: number;
    readonly maxWorkers: number;
    readonly queued: number;
    readonly workers: readonly {
        readonly pid: number | undefined;
        readonly state: string;
        readonly invocations: number;
    }[];
    /** Workers killed because an invocation overran its timeout (stuck in a long built-in, or stopped). */
    readonly timeoutKills: number;
    /** Workers killed because a step used its CPU budget and QuickJS did not stop it (measured by the host). */
    readonly cpuKills: number;
    /** Workers that exited on their own (crash, abort, OOM kill). */
    readonly crashes: number;
    /** Workers started to replace ones that died or were killed. */
    readonly respawns: number;
    /** Workers started beyond minWorkers because work was waiting. */
    readonly grown: number;
    /** Surplus workers stopped after idleMs without work. */
    readonly reaped: number;
    readonly queueRejections: number;
    readonly invocations: number;
}
/**
 * Runs invocations on worker processes, off the caller's event loop. A worker runs one
 * invocation at a time; an invocation that overruns its wall-clock limit, or its CPU limit by
 * the worker's CPU time where that can be read, gets its worker killed (SIGKILL works inside
 * WebAssembly, on a stopped process, on anything) and replaced.
 * The pool keeps `minWorkers` alive, starts more (up to `maxWorkers`) only while every worker
 * is busy and work waits, and stops the surplus once idle for `idleMs`: each worker is a whole
 * runtime (~60 MB resident), so an idle daemon should hold few. A new worker warms lazily.
 * The queue is bounded: saturation is an immediate, explicit failure, never a hang.
 */
export declare class SandboxPool {
    private readonly workers;
    private readonly queue;
    private readonly running;
    private nextId;
    private closed;
    private startFailures;
    private lastStartError;
    private readyWaiters;
    private counts;
    private readonly config;
    private reapTimer;
    private retryTimer;
    constructor(options: PoolOptions);
    /** Resolves when every worker is ready (or the pool gave up starting them). */
    ready(): Promise<void>;
    /** One invocation: a chain of one step. */
    invoke(spec: HandlerSpec, event: unknown, limits: SandboxLimits, hostCall: HostCallFn): Promise<InvocationOutcome>;
    /**
     * Run steps one after another in one worker (one round trip for the whole chain); the
     * worker's continuation decides between them. A worker killed or lost mid-chain ends it
     * `broken`, with the lost step's failure last.
     */
    invokeChain(steps: readonly ChainStep[], event: unknown): Promise<ChainOutcome>;
    /** Drop warm slots of these hooks (all when omitted) in every worker, e.g. after a reload. */
    evict(hookIds?: readonly string[]): void;
    stats(): PoolStats;
    /** Engine counters from each live worker (QuickJS modules, runtimes, contexts alive). */
    inspect(timeoutMs?: number): Promise<(EngineStats & {
        pid: number | undefined;
    })[]>;
    /** Refuse new work, let running invocations finish within `graceMs`, then kill every worker. */
    close(graceMs?: number): Promise<void>;
    /** Start one worker; false when it could not even be spawned. */
    private spawn;
    private onMessage;
    private stepDone;
    private hostCall;
    private onExit;
    private startFailed;
    private pump;
    /**
     * An idle worker, preferring one that has the job's slots warm (then the one with the fewest
     * warm slots); when none is idle and the pool cannot grow, a busy one with room (PREFETCH).
     */
    private pickWorker;
    /** Work waits and no worker is free: start one per waiting job (counting those starting), up to maxWorkers. */
    private grow;
    /** Arm one timer for the surplus worker that has been idle longest. */
    private scheduleReap;
    /** Stop the workers idle for idleMs, longest idle first, down to minWorkers; the warmest stay. */
    private reap;
    /** The running step has its timeout, plus a grace to report, and its CPU budget before its worker is killed. */
    private watchStep;
    private armQueueTimer;
    /** Specs travel once per worker (then by key), code once per worker (then by hash). */
    private sendChain;
    private expire;
    /** Resolve a job; if a worker held it, the worker moves on to its next chain (or goes idle). */
    private finish;
    /** Chains waiting to run: in the queue, and held by busy workers behind the one they run (PREFETCH). */
    private waiting;
    private anyAlive;
    /** Workers that count toward maxWorkers: all but the dead and the surplus being stopped. */
    private live;
    private allSettledStarting;
    private notifyReady;
}
