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

export function resolvePoolOptions(options: PoolOptions): PoolConfig {
  const { size } = options;
  if (size !== undefined && (options.minWorkers !== undefined || options.maxWorkers !== undefined)) {
    throw new RangeError("pool options: give either size (a fixed pool) or minWorkers/maxWorkers, not both");
  }
  const maxWorkers = size ?? options.maxWorkers;
  if (maxWorkers === undefined) throw new RangeError("pool options: maxWorkers (or size) is required");
  const minWorkers = size ?? options.minWorkers ?? Math.min(1, maxWorkers);
  if (!Number.isInteger(maxWorkers) || maxWorkers < 1) throw new RangeError(`pool maxWorkers must be a positive integer, got ${maxWorkers}`);
  if (!Number.isInteger(minWorkers) || minWorkers < 0 || minWorkers > maxWorkers) {
    throw new RangeError(`pool minWorkers must be an integer from 0 to maxWorkers (${maxWorkers}), got ${minWorkers}`);
  }
  const startWorkers = options.startWorkers ?? minWorkers;
  if (!Number.isInteger(startWorkers) || startWorkers < minWorkers || startWorkers > maxWorkers) {
    throw new RangeError(`pool startWorkers must be an integer from minWorkers (${minWorkers}) to maxWorkers (${maxWorkers}), got ${startWorkers}`);
  }
  const config = {
    spawn: options.spawn,
    minWorkers,
    maxWorkers,
    startWorkers,
    idleMs: options.idleMs ?? 60_000,
    maxQueue: options.maxQueue ?? 256,
    queueTimeoutMs: options.queueTimeoutMs ?? 30_000,
    killGraceMs: options.killGraceMs ?? 250,
    startTimeoutMs: options.startTimeoutMs ?? 15_000,
  };
  for (const key of ["idleMs", "maxQueue", "queueTimeoutMs", "killGraceMs", "startTimeoutMs"] as const) {
    if (!(config[key] >= 0)) throw new RangeError(`pool ${key} must be a number ≥ 0, got ${config[key]}`);
  }
  return config;
}
