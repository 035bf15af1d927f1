// The one constructor of the sandbox executors hooks run on: the daemon's pool, emit's worker
// without a daemon, `hookbox test`'s, `hookbox run`'s and doctor's. Each caller says only what
// differs (how many workers, what a worker is, one already starting, whether to wait for work);
// the options are resolved once and an impossible combination is refused before a worker starts.
// Lean at load: emit imports it on every event, so the pool's modules are loaded when one is built.
import type {
  ChainOutcome,
  ChainStep,
  HandlerSpec,
  HostCallFn,
  InvocationOutcome,
  PoolStats,
  SandboxLimits,
  SandboxPool,
  WorkerProcess,
} from "../../sandbox/index.ts";
import { holdMessages } from "../../sandbox/start.ts";
import { HookboxError } from "../core/errors.ts";
import type { SandboxHost } from "../platform/index.ts";

/**
 * What a sandbox worker is: a process of this program in worker mode, with an empty environment,
 * killed on a timeout ("process", the daemon's); the same for one evaluation, without Bun's
 * optimizing WebAssembly tier ("one-shot", emit without a daemon); or a thread of this process
 * (`emit --thread-worker`: no empty environment, no kill — SECURITY.md).
 */
export type WorkerKind = "process" | "one-shot" | "thread";

/** A pool that grows while work waits and stops idle workers above `min` (the daemon's `--workers min-max`). */
export interface WorkerRange {
  readonly min: number;
  readonly max: number;
  /** A worker above `min` stops after this long without work. */
  readonly idleMs: number;
}

export interface ExecutorOptions {
  /** Where workers come from: the runtime's sandbox host. */
  readonly sandbox: Pick<SandboxHost, "spawnWorker" | "spawnThreadWorker">;
  /** A fixed number of workers (default 1), or a range. */
  readonly workers?: number | WorkerRange;
  /** Default "process". */
  readonly kind?: WorkerKind;
  /** A worker already starting (startWorker), taken by the first spawn; killed at close if none was needed. */
  readonly prestarted?: WorkerProcess;
  /** Start no worker before the first chain arrives (emit: most events of most agents match no hook). */
  readonly lazy?: boolean;
}

/** ExecutorOptions resolved: every field set, every combination checked. */
export interface ExecutorConfig {
  readonly kind: WorkerKind;
  readonly minWorkers: number;
  readonly maxWorkers: number;
  /** Started with the executor (a lazy one: with its first chain). */
  readonly startWorkers: number;
  readonly idleMs: number | undefined;
  readonly lazy: boolean;
}

/** What hooks run on, and what the daemon's health check and reloads need of it. */
export type Executor = Pick<SandboxPool, "invokeChain" | "invoke" | "evict" | "stats" | "ready" | "close">;

/** Resolve the options, or say which combination cannot be built (nothing is started either way). */
export function resolveExecutorOptions(options: Omit<ExecutorOptions, "sandbox" | "prestarted">): ExecutorConfig {
  const kind = options.kind ?? "process";
  const workers = options.workers ?? 1;
  const lazy = options.lazy === true;
  const refuse = (why: string): never => {
    throw new HookboxError("internal", `sandbox executor: ${why}`);
  };
  if (typeof workers === "number") {
    if (!Number.isInteger(workers) || workers < 1) refuse(`a fixed number of workers must be an integer ≥ 1, got ${workers}`);
  } else {
    const { min, max, idleMs } = workers;
    if (!Number.isInteger(max) || max < 1) refuse(`the most workers must be an integer ≥ 1, got ${max}`);
    if (!Number.isInteger(min) || min < 0 || min > max) refuse(`the fewest workers must be an integer from 0 to ${max}, got ${min}`);
    if (!(idleMs >= 0)) refuse(`idleMs must be a number ≥ 0, got ${idleMs}`);
    if (lazy) refuse("a range of workers keeps its fewest warm: it cannot also wait for work before starting one (lazy)");
  }
  if (kind !== "process" && workers !== 1)
    refuse(`a ${kind} worker serves one evaluation of this process: it is never pooled (workers: 1, got ${JSON.stringify(workers)})`);
  if (typeof workers === "number") return { kind, minWorkers: workers, maxWorkers: workers, startWorkers: workers, idleMs: undefined, lazy };
  // One worker starts at once even when none is kept: the first event should not wait for it.
  return { kind, minWorkers: workers.min, maxWorkers: workers.max, startWorkers: Math.max(workers.min, 1), idleMs: workers.idleMs, lazy };
}

/** Start one worker of this kind now, its messages held until a pool listens; undefined when it cannot even be spawned. */
export function startWorker(sandbox: ExecutorOptions["sandbox"], kind: WorkerKind): WorkerProcess | undefined {
  try {
    return holdMessages(spawnerOf(sandbox, kind)());
  } catch {
    // The executor spawns its own and reports why it cannot (its hooks fail by their on_error).
    return undefined;
  }
}

function spawnerOf(sandbox: ExecutorOptions["sandbox"], kind: WorkerKind): () => WorkerProcess {
  if (kind === "thread") return () => sandbox.spawnThreadWorker();
  if (kind === "one-shot") return () => sandbox.spawnWorker({ oneShot: true });
  return () => sandbox.spawnWorker();
}

/** The executor these options describe. Its workers start now (unless lazy); `ready()` waits for them. */
export async function createExecutor(options: ExecutorOptions): Promise<Executor> {
  let config: ExecutorConfig;
  try {
    config = resolveExecutorOptions(options);
  } catch (error) {
    options.prestarted?.kill();
    throw error;
  }
  const { SandboxPool } = await import("../../sandbox/index.ts");
  let unclaimed = options.prestarted;
  const spawnNew = spawnerOf(options.sandbox, config.kind);
  const spawn = (): WorkerProcess => {
    const worker = unclaimed ?? spawnNew();
    unclaimed = undefined;
    return worker;
  };
  const build = (): SandboxPool =>
    new SandboxPool({
      spawn,
      minWorkers: config.minWorkers,
      maxWorkers: config.maxWorkers,
      startWorkers: config.startWorkers,
      ...(config.idleMs !== undefined ? { idleMs: config.idleMs } : {}),
    });
  return config.lazy ? new LazyExecutor(config, build, () => unclaimed?.kill()) : build();
}

/** A pool built when the first chain (or invocation) arrives. */
class LazyExecutor implements Executor {
  private pool: Promise<SandboxPool> | undefined;
  private built: SandboxPool | undefined;
  private closed = false;

  constructor(
    private readonly config: ExecutorConfig,
    private readonly build: () => SandboxPool,
    private readonly killUnclaimed: () => void,
  ) {}

  async invokeChain(steps: readonly ChainStep[], event: unknown): Promise<ChainOutcome> {
    return (await this.started()).invokeChain(steps, event);
  }

  async invoke(spec: HandlerSpec, event: unknown, limits: SandboxLimits, hostCall: HostCallFn): Promise<InvocationOutcome> {
    return (await this.started()).invoke(spec, event, limits, hostCall);
  }

  evict(hookIds?: readonly string[]): void {
    this.built?.evict(hookIds);
  }

  stats(): PoolStats {
    if (this.built) return this.built.stats();
    const none = { timeoutKills: 0, cpuKills: 0, crashes: 0, respawns: 0, grown: 0, reaped: 0, queueRejections: 0, invocations: 0 };
    return { size: 0, minWorkers: this.config.minWorkers, maxWorkers: this.config.maxWorkers, queued: 0, workers: [], ...none };
  }

  /** Nothing is started before work arrives: nothing to wait for. */
  async ready(): Promise<void> {}

  async close(graceMs?: number): Promise<void> {
    this.closed = true;
    await this.built?.close(graceMs);
    this.killUnclaimed();
  }

  private started(): Promise<SandboxPool> {
    if (this.closed) return Promise.reject(new HookboxError("internal", "sandbox executor: used after close"));
    this.pool ??= (async () => {
      const pool = this.build();
      this.built = pool;
      await pool.ready();
      return pool;
    })();
    return this.pool;
  }
}
