import type { WorkerProcess } from "../worker/protocol.ts";
export interface PoolOptions {
    /** Start one sandbox worker process (provided by the runtime adapter). */
    readonly spawn: () => WorkerProcess;
    /** A fixed pool of this many workers: shorthand for `minWorkers` = `maxWorkers` = `size`. */
    readonly size?: number;
    /** Workers kept however idle. Default 1. */
    readonly minWorkers?: number;
    /**
     * Workers started with the pool, before any work arrives (so the first invocation finds one
     * ready); those beyond `minWorkers` are stopped once idle like any surplus. Default `minWorkers`.
     */
    readonly startWorkers?: number;
    /**
     * The most workers at once (one per core is a good value); above `minWorkers` they are started
     * only while every worker is busy and work waits. Required unless `size` is given.
     */
    readonly maxWorkers?: number;
    /** A worker idle this long is stopped, while more than `minWorkers` run. Default 60 000 ms. */
    readonly idleMs?: number;
    /** Invocations waiting for a worker beyond this are refused with `sandbox_queue_full`. Default 256. */
    readonly maxQueue?: number;
    /** A queued invocation that found no worker within this time is refused. Default 30 000 ms. */
    readonly queueTimeoutMs?: number;
    /** After `timeoutMs`, the worker has this long to report before it is killed. Default 250 ms. */
    readonly killGraceMs?: number;
    /** A worker that is not ready within this time is killed and replaced. Default 15 000 ms. */
    readonly startTimeoutMs?: number;
}
/** PoolOptions resolved once: every field set, every combination checked. */
export interface PoolConfig {
    readonly spawn: () => WorkerProcess;
    readonly minWorkers: number;
    readonly maxWorkers: number;
    readonly startWorkers: number;
    readonly idleMs: number;
    readonly maxQueue: number;
    readonly queueTimeoutMs: number;
    readonly killGraceMs: number;
    readonly startTimeoutMs: number;
}
export declare function resolvePoolOptions(options: PoolOptions): PoolConfig;
