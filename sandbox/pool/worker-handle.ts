import type { EngineStats } from "../engine/engine.ts";
import type { FromWorker, ToWorker, WorkerProcess } from "../worker/protocol.ts";

/** "stopping": killed by the pool as surplus (idle too long), not yet exited. */
export type WorkerState = "starting" | "idle" | "busy" | "stopping" | "dead";

/** Why the pool killed a worker. */
export type KillReason = "timeout" | "close" | "start" | "idle";

/**
 * The parent's view of one worker process: its state, what it has loaded (for routing and to
 * send code only once), and a typed message channel over the process pipe.
 */
export class WorkerHandle {
  state: WorkerState = "starting";
  invocations = 0;
  /** When the worker last became idle (performance.now()), for reaping surplus workers. */
  idleSince = 0;
  /** Slot keys this worker has run: a hint for routing a hook to a worker that has it warm. */
  readonly warmSlots = new Set<string>();
  /** Code hashes already sent to this worker. */
  readonly knownCode = new Set<string>();
  /** Why the pool killed this worker, if it did. */
  killedFor: KillReason | undefined;
  private readonly statsWaiters = new Map<number, (stats: EngineStats) => void>();
  private nextStatsId = 0;

  constructor(
    readonly process: WorkerProcess,
    readonly onMessage: (worker: WorkerHandle, message: FromWorker) => void,
  ) {
    process.onLine((line) => {
      let message: FromWorker;
      try {
        message = JSON.parse(line) as FromWorker;
      } catch {
        return; // not protocol output; the pipe carries nothing else we could act on
      }
      if (message.t === "stats") {
        this.statsWaiters.get(message.id)?.(message.stats);
        this.statsWaiters.delete(message.id);
        return;
      }
      onMessage(this, message);
    });
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  send(message: ToWorker): void {
    if (this.state === "dead") return;
    try {
      this.process.send(JSON.stringify(message));
    } catch {
      // The exit listener reports a broken pipe; nothing to add here.
    }
  }

  kill(reason: KillReason): void {
    this.killedFor ??= reason;
    this.process.kill();
  }

  /** Ask the worker for its engine counters; undefined if it does not answer in time. */
  stats(timeoutMs: number): Promise<EngineStats | undefined> {
    const id = ++this.nextStatsId;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.statsWaiters.delete(id);
        resolve(undefined);
      }, timeoutMs);
      this.statsWaiters.set(id, (stats) => {
        clearTimeout(timer);
        resolve(stats);
      });
      this.send({ t: "stats", id });
    });
  }
}
