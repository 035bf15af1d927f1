import type { EngineStats } from "../engine/engine.ts";
import type { SandboxLimits } from "../limits.ts";
import type { FromWorker, ToWorker, WorkerProcess } from "../worker/protocol.ts";

/** "stopping": killed by the pool as surplus (idle too long), not yet exited. */
export type WorkerState = "starting" | "idle" | "busy" | "stopping" | "dead";

/** Why the pool killed a worker: "cpu" and "timeout" are the running step's limits. */
export type KillReason = "timeout" | "cpu" | "close" | "start" | "idle";

/**
 * CPU time the worker may spend on a step beyond its `cpuMs` before the host kills it: its own
 * work around the guest (a cold start instantiates a QuickJS module and builds a context: 3–8
 * ms measured on Bun and Node), and the clock's granularity (4–10 ms). The guest's own
 * interrupt stops it at `cpuMs` first whenever QuickJS polls it; this is the backstop for when
 * it does not.
 */
const CPU_SLACK_MS = 50;

/** Checks closer together than this are not worth their reads (the clock moves in 4–10 ms steps). */
const CPU_POLL_MIN_MS = 10;

/** What the pool saw of a step it ended by killing its worker. */
export interface KilledStep {
  readonly wallMs: number;
  /** CPU time the worker spent on the step, where it could be read. */
  readonly cpuMs: number | undefined;
}

/** The running step of a worker: when it started, its CPU clock then, and the timers that watch it. */
interface WatchedStep {
  readonly startedAt: number;
  readonly cpuAtStart: number | undefined;
  wallTimer?: ReturnType<typeof setTimeout>;
  cpuTimer?: ReturnType<typeof setTimeout>;
}

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
  private step: WatchedStep | undefined;
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

  /**
   * Watch the step that starts now: the worker is killed after `timeoutMs` + `graceMs` of wall
   * clock, or once it spent `cpuMs` + CPU_SLACK_MS of CPU time on the step (where its CPU time
   * can be read). The CPU is checked only when the budget could have run out (a thread spends
   * at most its wall time), so a step shorter than its budget costs no read at all.
   */
  watchStep(limits: SandboxLimits, graceMs: number): void {
    this.unwatchStep();
    const step: WatchedStep = { startedAt: performance.now(), cpuAtStart: this.process.cpuTimeMs?.() };
    this.step = step;
    step.wallTimer = setTimeout(() => this.killStep("timeout"), limits.timeoutMs + graceMs);
    const { cpuAtStart } = step;
    if (cpuAtStart === undefined) return; // no clock here: the in-guest interrupt alone
    const budgetMs = limits.cpuMs + CPU_SLACK_MS;
    const check = (): void => {
      const now = this.process.cpuTimeMs?.();
      // Unreadable: the worker is gone (its exit ends the step) or the read failed; look again.
      if (now === undefined) return void (step.cpuTimer = setTimeout(check, CPU_POLL_MIN_MS));
      const usedMs = now - cpuAtStart;
      if (usedMs > budgetMs) return this.killStep("cpu", usedMs);
      step.cpuTimer = setTimeout(check, Math.max(CPU_POLL_MIN_MS, budgetMs - usedMs));
    };
    step.cpuTimer = setTimeout(check, budgetMs);
  }

  /** The running step ended (or the worker did): its timers go. */
  unwatchStep(): void {
    clearTimeout(this.step?.wallTimer);
    clearTimeout(this.step?.cpuTimer);
    this.step = undefined;
  }

  private killStep(reason: "timeout" | "cpu", cpuUsedMs?: number): void {
    const step = this.step;
    if (!step) return;
    const now = cpuUsedMs === undefined ? this.process.cpuTimeMs?.() : undefined;
    const cpuMs = cpuUsedMs ?? (now !== undefined && step.cpuAtStart !== undefined ? now - step.cpuAtStart : undefined);
    this.killedStep = { wallMs: performance.now() - step.startedAt, cpuMs };
    this.unwatchStep();
    this.kill(reason);
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
