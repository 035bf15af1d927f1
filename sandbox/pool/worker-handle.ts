import type { EngineStats } from "../engine/engine.ts";
import type { SandboxLimits } from "../limits.ts";
import { StepWatch, type KilledStep } from "./step-watch.ts";
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
export class WorkerHandle<J = unknown> {
  state: WorkerState = "starting";
  invocations = 0;
  /** When the worker last became idle (performance.now()), for reaping surplus workers. */
  idleSince = 0;
  /** Chains sent and not yet done, in the order the worker runs them; the first is running. */
  readonly jobs: J[] = [];
  /** Slot keys this worker has run: a hint for routing a hook to a worker that has it warm. */
  readonly warmSlots = new Set<string>();
  /** Spec keys and code hashes already sent to this worker. */
  readonly knownSpecs = new Set<string>();
  readonly knownCode = new Set<string>();
  /** Why the pool killed this worker, if it did. */
  killedFor: KillReason | undefined;
  /** Set when a step's limit (timeout, cpu) killed the worker. */
  killedStep: KilledStep | undefined;
  private watch: StepWatch | undefined;
  private readonly statsWaiters = new Map<number, (stats: EngineStats) => void>();
  private nextStatsId = 0;

  constructor(
    readonly process: WorkerProcess,
    readonly onMessage: (worker: WorkerHandle<J>, message: FromWorker) => void,
  ) {
    process.onMessage((raw) => {
      if (typeof raw !== "object" || raw === null) return; // not protocol output
      const message = raw as FromWorker;
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
      this.process.send(message);
    } catch {
      // The exit listener reports a broken channel; nothing to add here.
    }
  }

  kill(reason: KillReason): void {
    this.killedFor ??= reason;
    this.process.kill();
  }

  /** Watch the step that starts now: its timeout and its CPU budget (StepWatch). */
  watchStep(limits: SandboxLimits, graceMs: number): void {
    this.watch?.stop();
    this.watch = new StepWatch(
      limits,
      graceMs,
      () => this.process.cpuTimeMs?.(),
      (reason, seen) => {
        this.killedStep = seen;
        this.kill(reason);
      },
    );
  }

  /** The running step ended (or the worker did). */
  unwatchStep(): void {
    this.watch?.stop();
    this.watch = undefined;
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
