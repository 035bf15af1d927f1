import type { EngineStats } from "../engine/engine.ts";
import { failure, limitExceeded, type SandboxFailure } from "../failure.ts";
import type { SandboxLimits } from "../limits.ts";
import { slotKey } from "../spec.ts";
import { toHostCallError } from "../host-error.ts";
import type { ChainOutcome, ChainStep, HandlerSpec, HostCallFn, InvocationOutcome } from "../types.ts";
import type { FromWorker, WireStep, WorkerProcess } from "../worker/protocol.ts";
import { hostResultBudget, jsonLength, MEASURED_HOST_RESULT_CHARS, resultTooLarge } from "./host-result.ts";
import { resolvePoolOptions, type PoolConfig, type PoolOptions } from "./options.ts";
import type { KilledStep } from "./step-watch.ts";
import { WorkerHandle } from "./worker-handle.ts";

export type { PoolOptions } from "./options.ts";

export interface PoolStats {
  /** Workers alive now (starting, idle or busy). */
  readonly size: number;
  readonly minWorkers: number;
  readonly maxWorkers: number;
  readonly queued: number;
  readonly workers: readonly { readonly pid: number | undefined; readonly state: string; readonly invocations: number }[];
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

interface Job {
  readonly id: number;
  readonly steps: readonly ChainStep[];
  /** Slot keys of the steps: routing prefers a worker that has them warm. */
  readonly slots: readonly string[];
  readonly event: unknown;
  /** Build the steps' guests ahead of any event instead of running them (SandboxPool.prepare). */
  readonly prepare?: true;
  readonly resolve: (outcome: ChainOutcome) => void;
  readonly outcomes: InvocationOutcome[];
  /** Armed only while the job waits in the queue. */
  queueTimer?: ReturnType<typeof setTimeout>;
  /** Created on a step's first host call, aborted when that step ends. */
  abort?: AbortController;
  worker?: Worker;
}

type Worker = WorkerHandle<Job>;

const MAX_START_FAILURES = 3;

/**
 * Chains a busy worker may hold beyond the one it runs, once every worker the pool may have is
 * started: the worker starts the next one the moment it ends the last, instead of idling for a
 * round trip through the daemon's event loop. The cost: that chain waits behind the running one
 * even if another worker frees up first.
 */
const PREFETCH = 1;

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
export class SandboxPool {
  private readonly workers = new Set<Worker>();
  private readonly queue: Job[] = [];
  private readonly running = new Map<number, Job>();
  private nextId = 0;
  private closed = false;
  private startFailures = 0;
  private lastStartError = "";
  private readyWaiters: (() => void)[] = [];
  private counts = { timeoutKills: 0, cpuKills: 0, crashes: 0, respawns: 0, grown: 0, reaped: 0, queueRejections: 0, invocations: 0 };
  private readonly config: PoolConfig;
  private reapTimer: ReturnType<typeof setTimeout> | undefined;
  /** Workers kept however idle beyond minWorkers, while the owner asks (hold). */
  private held = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: PoolOptions) {
    this.config = resolvePoolOptions(options);
    for (let i = 0; i < this.config.startWorkers; i++) if (!this.spawn()) break;
  }

  /** Resolves when every worker is ready (or the pool gave up starting them). */
  async ready(): Promise<void> {
    if (this.allSettledStarting()) return;
    await new Promise<void>((resolve) => this.readyWaiters.push(resolve));
  }

  /** One invocation: a chain of one step. */
  async invoke(spec: HandlerSpec, event: unknown, limits: SandboxLimits, hostCall: HostCallFn): Promise<InvocationOutcome> {
    const chain = await this.invokeChain([{ spec, limits, call: hostCall, tag: undefined }], event);
    return chain.outcomes[0] ?? rejected(failure("sandbox_crashed", "the invocation produced no outcome"));
  }

  /**
   * Run steps one after another in one worker (one round trip for the whole chain); the
   * worker's continuation decides between them. A worker killed or lost mid-chain ends it
   * `broken`, with the lost step's failure last.
   */
  invokeChain(steps: readonly ChainStep[], event: unknown): Promise<ChainOutcome> {
    return this.enqueue(steps, event, false);
  }

  /**
   * Build these hooks' guests ahead of any event, in one worker (the one the next chain of them
   * is routed to): their instances, preludes, hook objects and module top levels, with no event
   * and no host call — a hook's first event then runs warm. Each step's outcome says whether its
   * guest could be built (a broken hook fails here as it would on its first event).
   */
  prepare(steps: readonly { readonly spec: HandlerSpec; readonly limits: SandboxLimits }[]): Promise<ChainOutcome> {
    const refuse: HostCallFn = () => Promise.reject(new Error("no host calls while a hook is prepared"));
    return this.enqueue(
      steps.map((step) => ({ ...step, call: refuse, tag: undefined })),
      null,
      true,
    );
  }

  /**
   * Keep at least `workers` alive however idle (beyond minWorkers), until asked otherwise: the
   * daemon holds one, with its warm guests, while an agent session is open. Starts none.
   */
  hold(workers: number): void {
    this.held = Math.max(0, Math.min(this.config.maxWorkers, Math.floor(workers)));
    this.scheduleReap();
  }

  private enqueue(steps: readonly ChainStep[], event: unknown, prepare: boolean): Promise<ChainOutcome> {
    const refuse = (reason: SandboxFailure): Promise<ChainOutcome> => Promise.resolve({ outcomes: [rejected(reason)], broken: true });
    if (steps.length === 0) return Promise.resolve({ outcomes: [], broken: false });
    if (this.closed) return refuse(failure("sandbox_closed", "the sandbox pool is shut down"));
    if (this.startFailures >= MAX_START_FAILURES && !this.anyAlive())
      return refuse(failure("sandbox_crashed", `sandbox workers fail to start: ${this.lastStartError}`));
    if (this.waiting() >= this.config.maxQueue) {
      this.counts.queueRejections++;
      return refuse(
        failure(
          "sandbox_queue_full",
          `the sandbox queue is full (${this.config.maxQueue} invocations waiting for ${this.live()} workers, at most ${this.config.maxWorkers}); retry later`,
        ),
      );
    }
    if (!prepare) this.counts.invocations += steps.length;
    return new Promise((resolve) => {
      const slots = steps.map((step) => slotKey(step.spec, step.limits.memoryBytes, step.limits.stackBytes));
      const job: Job = { id: ++this.nextId, steps, slots, event, resolve, outcomes: [], ...(prepare ? { prepare: true as const } : {}) };
      this.queue.push(job);
      this.pump();
      // Still waiting (not started, not already failed because no worker can start).
      if (!job.worker && this.queue.includes(job)) this.armQueueTimer(job);
    });
  }

  /** Drop warm slots of these hooks (all when omitted) in every worker, e.g. after a reload. */
  evict(hookIds?: readonly string[]): void {
    for (const worker of this.workers) {
      worker.send(hookIds ? { t: "evict", hookIds } : { t: "evict" });
      if (!hookIds) worker.warmSlots.clear();
    }
  }

  stats(): PoolStats {
    return {
      size: this.live(),
      minWorkers: this.config.minWorkers,
      maxWorkers: this.config.maxWorkers,
      queued: this.waiting(),
      workers: [...this.workers].map((w) => ({ pid: w.pid, state: w.state, invocations: w.invocations })),
      ...this.counts,
    };
  }

  /** Engine counters from each live worker (QuickJS modules, runtimes, contexts alive). */
  async inspect(timeoutMs = 2000): Promise<(EngineStats & { pid: number | undefined })[]> {
    const live = [...this.workers].filter((w) => w.state === "idle" || w.state === "busy");
    const all = await Promise.all(live.map(async (w) => ({ pid: w.pid, stats: await w.stats(timeoutMs) })));
    return all.flatMap(({ pid, stats }) => (stats ? [{ ...stats, pid }] : []));
  }

  /** Refuse new work, let running invocations finish within `graceMs`, then kill every worker. */
  async close(graceMs = 2000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.reapTimer);
    clearTimeout(this.retryTimer);
    for (const job of this.queue.splice(0))
      this.finish(job, { outcomes: [rejected(failure("sandbox_closed", "the sandbox pool shut down before this invocation ran"))], broken: true });
    const deadline = Date.now() + graceMs;
    while (this.running.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    for (const job of this.running.values()) {
      this.finish(job, {
        outcomes: [...job.outcomes, rejected(failure("sandbox_closed", "the sandbox pool shut down during this invocation"))],
        broken: true,
      });
    }
    const exits = [...this.workers].map((w) => new Promise<void>((resolve) => (w.state === "dead" ? resolve() : w.process.onExit(() => resolve()))));
    for (const worker of this.workers) worker.kill("close");
    await Promise.race([Promise.all(exits), new Promise((r) => setTimeout(r, 1000))]);
  }

  /** Start one worker; false when it could not even be spawned. */
  private spawn(): boolean {
    let process: WorkerProcess;
    try {
      process = this.config.spawn();
    } catch (error) {
      this.startFailed(`spawn failed: ${error instanceof Error ? error.message : String(error)}`);
      // Nothing runs and nothing is starting: what waits would wait for ever. It fails now, with
      // the reason, and its callers' rules (on_error) decide.
      if (!this.anyAlive())
        for (const job of this.queue.splice(0))
          this.finish(job, {
            outcomes: [...job.outcomes, rejected(failure("sandbox_crashed", `a sandbox worker cannot start: ${this.lastStartError}`))],
            broken: true,
          });
      return false;
    }
    const worker: Worker = new WorkerHandle<Job>(process, (w, message) => this.onMessage(w, message));
    this.workers.add(worker);
    const startTimer = setTimeout(() => {
      if (worker.state === "starting") worker.kill("start");
    }, this.config.startTimeoutMs);
    process.onExit((exit) => {
      clearTimeout(startTimer);
      this.onExit(worker, exit);
    });
    return true;
  }

  private onMessage(worker: Worker, message: FromWorker): void {
    switch (message.t) {
      case "ready":
        if (worker.state !== "starting") return;
        worker.state = "idle";
        worker.idleSince = performance.now();
        this.startFailures = 0;
        this.notifyReady();
        this.pump();
        return;
      case "call":
        this.hostCall(worker, message);
        return;
      case "need-code": {
        const job = this.running.get(message.id);
        if (!job || job.worker !== worker) return;
        // The worker dropped this chain and goes on with the next it holds: resend it, in full, last.
        const wasFirst = worker.jobs[0] === job;
        worker.jobs.splice(worker.jobs.indexOf(job), 1);
        worker.jobs.push(job);
        for (const step of job.steps) {
          worker.knownSpecs.delete(step.spec.key);
          worker.knownCode.delete(step.spec.handler.codeHash);
        }
        if (wasFirst) this.watchStep(worker, ((worker.jobs[0] as Job).steps[0] as ChainStep).limits);
        this.sendChain(worker, job);
        return;
      }
      case "step": {
        const job = this.running.get(message.id);
        if (!job || worker.jobs[0] !== job || message.index !== job.outcomes.length) return;
        this.stepDone(job, message.outcome);
        const next = job.steps[job.outcomes.length];
        if (next) this.watchStep(worker, next.limits);
        return;
      }
      case "done": {
        const job = this.running.get(message.id);
        if (!job || worker.jobs[0] !== job) return;
        this.stepDone(job, message.outcome);
        this.finish(job, { outcomes: job.outcomes, broken: false });
        this.pump();
        return;
      }
    }
  }

  private stepDone(job: Job, outcome: InvocationOutcome): void {
    job.outcomes.push(outcome);
    job.abort?.abort();
    job.abort = undefined;
  }

  private hostCall(worker: Worker, message: Extract<FromWorker, { t: "call" }>): void {
    const job = this.running.get(message.id);
    const step = job?.steps[message.step];
    if (!job || !step || worker.jobs[0] !== job || message.step !== job.outcomes.length) return;
    job.abort ??= new AbortController();
    const signal = job.abort.signal;
    let result: Promise<unknown>;
    try {
      result = step.call(message.name, message.args, signal);
    } catch (error) {
      result = Promise.reject(error);
    }
    result.then(
      (value) => {
        if (signal.aborted) return;
        // Measured before anything is serialized: an oversized result fails this call (the guest
        // can catch it) instead of flooding the worker's pipe until the wall clock kills it.
        let chars: number;
        try {
          chars = jsonLength(value, MEASURED_HOST_RESULT_CHARS);
        } catch (error) {
          return worker.send({ t: "host", id: message.id, call: message.call, ok: false, error: toHostCallError(error) });
        }
        if (chars > hostResultBudget(step.limits)) {
          return worker.send({ t: "host", id: message.id, call: message.call, ok: false, error: resultTooLarge(message.name, chars, step.limits) });
        }
        worker.send({ t: "host", id: message.id, call: message.call, ok: true, value });
      },
      (error: unknown) => {
        if (!signal.aborted) worker.send({ t: "host", id: message.id, call: message.call, ok: false, error: toHostCallError(error) });
      },
    );
  }

  private onExit(worker: Worker, exit: { code: number | null; signal: string | null }): void {
    const wasStarting = worker.state === "starting";
    worker.state = "dead";
    worker.unwatchStep();
    this.workers.delete(worker);
    const [job, ...notStarted] = worker.jobs.splice(0);
    if (job) {
      const step = job.steps[job.outcomes.length];
      if (!step) {
        this.finish(job, { outcomes: job.outcomes, broken: false });
      } else if (worker.killedFor === "timeout") {
        this.finish(job, {
          outcomes: [
            ...job.outcomes,
            rejected(limitExceeded("timeoutMs", step.limits, "the guest did not yield, so its worker was killed"), worker.killedStep),
          ],
          broken: true,
        });
      } else if (worker.killedFor === "cpu") {
        const detail = `${Math.round(worker.killedStep?.cpuMs ?? 0)} ms of CPU time, measured by the host: QuickJS did not stop the guest, so its worker was killed`;
        this.finish(job, { outcomes: [...job.outcomes, rejected(limitExceeded("cpuMs", step.limits, detail), worker.killedStep)], broken: true });
      } else {
        const how = exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
        const tail = worker.process.stderrTail().trim().split("\n").slice(-3).join(" | ");
        this.finish(job, {
          outcomes: [...job.outcomes, rejected(failure("sandbox_crashed", `the sandbox worker died (${how})${tail ? `: ${tail}` : ""}`))],
          broken: true,
        });
      }
    }
    // Chains the worker held but had not started go back to the head of the queue, in order.
    for (const waiting of notStarted.reverse()) {
      this.running.delete(waiting.id);
      waiting.worker = undefined;
      this.queue.unshift(waiting);
      this.armQueueTimer(waiting);
    }
    if (worker.killedFor === "timeout") this.counts.timeoutKills++;
    else if (worker.killedFor === "cpu") this.counts.cpuKills++;
    else if (worker.killedFor !== "close" && worker.killedFor !== "idle") this.counts.crashes++;
    if (wasStarting) {
      const tail = worker.process.stderrTail().trim().split("\n").slice(-3).join(" | ");
      this.startFailed(
        worker.killedFor === "start" ? `no ready signal within ${this.config.startTimeoutMs} ms` : tail || `exited (${exit.code ?? exit.signal})`,
      );
    }
    if (this.closed || worker.killedFor === "idle") return;
    if (this.startFailures >= MAX_START_FAILURES) {
      // Crash loop: fail what waits (with the reason) and retry slowly, one worker at a time.
      for (const job of this.queue.splice(0))
        this.finish(job, { outcomes: [rejected(failure("sandbox_crashed", `sandbox workers fail to start: ${this.lastStartError}`))], broken: true });
      clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(
        () => {
          if (!this.closed && this.live() < this.config.maxWorkers && this.spawn()) this.counts.respawns++;
        },
        Math.min(30_000, 500 * 2 ** (this.startFailures - MAX_START_FAILURES)),
      );
      return;
    }
    // Replace it: up to minWorkers at once, beyond that only if work is waiting.
    while (this.live() < this.kept() && this.spawn()) this.counts.respawns++;
    this.pump();
  }

  private startFailed(reason: string): void {
    this.startFailures++;
    this.lastStartError = reason;
    this.notifyReady();
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const job = this.queue[0] as Job;
      const worker = this.pickWorker(job);
      if (!worker) break;
      this.queue.shift();
      clearTimeout(job.queueTimer);
      job.queueTimer = undefined;
      job.worker = worker;
      worker.jobs.push(job);
      worker.state = "busy";
      worker.invocations++;
      for (const slot of job.slots) worker.warmSlots.add(slot);
      this.running.set(job.id, job);
      if (worker.jobs.length === 1) this.watchStep(worker, (job.steps[0] as ChainStep).limits);
      this.sendChain(worker, job);
    }
    this.grow();
    this.scheduleReap();
  }

  /**
   * An idle worker, preferring one that has the job's slots warm (then the one with the fewest
   * warm slots); when none is idle and the pool cannot grow, a busy one with room (PREFETCH).
   */
  private pickWorker(job: Job): Worker | undefined {
    const warmth = (w: Worker): number => {
      let n = 0;
      for (const slot of job.slots) if (w.warmSlots.has(slot)) n++;
      return n;
    };
    let best: Worker | undefined;
    let bestWarmth = -1;
    let starting = false;
    for (const w of this.workers) {
      if (w.state === "starting") starting = true;
      if (w.state !== "idle") continue;
      const h = warmth(w);
      if (!best || h > bestWarmth || (h === bestWarmth && w.warmSlots.size < best.warmSlots.size)) {
        best = w;
        bestWarmth = h;
      }
    }
    if (best) return best;
    // A worker building guests ahead of any event (prepare) is where this job's will be warm
    // first: waiting behind one build beats a new worker building them all again, cold.
    for (const w of this.workers) if (w.state === "busy" && w.jobs.length <= PREFETCH && w.jobs[0]?.prepare && !job.prepare) return w;
    if (starting || this.live() < this.config.maxWorkers) return best;
    for (const w of this.workers) {
      if (w.state !== "busy" || w.jobs.length > PREFETCH) continue;
      if (!best || w.jobs.length < best.jobs.length || (w.jobs.length === best.jobs.length && warmth(w) > warmth(best))) best = w;
    }
    return best;
  }

  /** Work waits and no worker is free: start one per waiting job (counting those starting, not prepares), up to maxWorkers. */
  private grow(): void {
    if (this.closed || this.startFailures >= MAX_START_FAILURES) return;
    let starting = [...this.workers].filter((w) => w.state === "starting").length;
    // Guests built ahead of any event (prepare) wait for a worker; they start one only when none is alive.
    const prepares = this.queue.filter((job) => job.prepare).length;
    const waiting = this.queue.length - prepares + (prepares > 0 && this.live() === 0 ? 1 : 0);
    while (waiting > starting && this.live() < this.config.maxWorkers && this.spawn()) {
      starting++;
      this.counts.grown++;
    }
  }

  /** Arm one timer for the surplus worker that has been idle longest. */
  private scheduleReap(): void {
    if (this.closed || this.reapTimer !== undefined || this.live() <= this.kept()) return;
    const idleSince = [...this.workers].filter((w) => w.state === "idle").map((w) => w.idleSince);
    if (idleSince.length === 0) return;
    const dueMs = Math.max(0, Math.min(...idleSince) + this.config.idleMs - performance.now());
    this.reapTimer = setTimeout(() => {
      this.reapTimer = undefined;
      this.reap();
    }, dueMs);
    // A pending reap must not keep the process alive (runtimes without unref ignore this).
    (this.reapTimer as { unref?: () => void }).unref?.();
  }

  /** Stop the workers idle for idleMs, longest idle first, down to minWorkers; the warmest stay. */
  private reap(): void {
    const now = performance.now();
    const idle = [...this.workers].filter((w) => w.state === "idle").sort((a, b) => a.idleSince - b.idleSince);
    for (const worker of idle) {
      if (this.live() <= this.kept() || now - worker.idleSince < this.config.idleMs) break;
      worker.state = "stopping";
      worker.kill("idle");
      this.counts.reaped++;
    }
    this.scheduleReap();
  }

  /** The running step has its timeout, plus a grace to report, and its CPU budget before its worker is killed. */
  private watchStep(worker: Worker, limits: SandboxLimits): void {
    worker.watchStep(limits, this.config.killGraceMs);
  }

  private armQueueTimer(job: Job): void {
    job.queueTimer ??= setTimeout(() => this.expire(job), this.config.queueTimeoutMs);
  }

  /** Specs travel once per worker (then by key), code once per worker (then by hash). */
  private sendChain(worker: Worker, job: Job): void {
    const steps: WireStep[] = job.steps.map(({ spec, limits, tag }) => {
      if (worker.knownSpecs.has(spec.key)) return { key: spec.key, limits, tag };
      worker.knownSpecs.add(spec.key);
      const { handler } = spec;
      const first = !worker.knownCode.has(handler.codeHash);
      worker.knownCode.add(handler.codeHash);
      return { key: spec.key, spec: { ...spec, handler: first ? handler : { filename: handler.filename, codeHash: handler.codeHash } }, limits, tag };
    });
    worker.send({ t: "chain", id: job.id, steps, event: job.event, ...(job.prepare ? { prepare: true as const } : {}) });
  }

  private expire(job: Job): void {
    const index = this.queue.indexOf(job);
    if (index < 0) return;
    this.queue.splice(index, 1);
    this.counts.queueRejections++;
    this.finish(job, {
      outcomes: [
        rejected(
          failure(
            "sandbox_queue_full",
            `no sandbox worker became free within ${this.config.queueTimeoutMs} ms (${this.live()} workers, all busy; at most ${this.config.maxWorkers})`,
          ),
        ),
      ],
      broken: true,
    });
  }

  /** Resolve a job; if a worker held it, the worker moves on to its next chain (or goes idle). */
  private finish(job: Job, outcome: ChainOutcome): void {
    clearTimeout(job.queueTimer);
    job.abort?.abort();
    this.running.delete(job.id);
    const worker = job.worker;
    const index = worker ? worker.jobs.indexOf(job) : -1;
    if (worker && index >= 0) {
      worker.jobs.splice(index, 1);
      const next = worker.jobs[0];
      if (index === 0) worker.unwatchStep();
      if (next && index === 0) this.watchStep(worker, (next.steps[next.outcomes.length] as ChainStep).limits);
      if (!next && worker.state === "busy") {
        worker.state = "idle";
        worker.idleSince = performance.now();
      }
    }
    job.resolve(outcome);
  }

  /** Chains waiting to run: in the queue, and held by busy workers behind the one they run (PREFETCH). */
  private waiting(): number {
    let n = this.queue.length;
    for (const w of this.workers) if (w.jobs.length > 1) n += w.jobs.length - 1;
    return n;
  }

  /** The fewest workers kept alive now: minWorkers, or more while held. */
  private kept(): number {
    return Math.max(this.config.minWorkers, this.held);
  }

  private anyAlive(): boolean {
    return [...this.workers].some((w) => w.state !== "dead");
  }

  /** Workers that count toward maxWorkers: all but the dead and the surplus being stopped. */
  private live(): number {
    let n = 0;
    for (const w of this.workers) if (w.state !== "dead" && w.state !== "stopping") n++;
    return n;
  }

  private allSettledStarting(): boolean {
    return ![...this.workers].some((w) => w.state === "starting");
  }

  private notifyReady(): void {
    if (!this.allSettledStarting()) return;
    for (const resolve of this.readyWaiters.splice(0)) resolve();
  }
}

const NO_STATS = { cpuMs: 0, wallMs: 0, hostCalls: 0, heapBytes: 0, coldStart: false };

/** An outcome the worker did not report; a step its limits killed has the times the pool saw. */
function rejected(reason: SandboxFailure, killed?: KilledStep): InvocationOutcome {
  const stats = killed ? { ...NO_STATS, wallMs: round(killed.wallMs), cpuMs: round(killed.cpuMs ?? 0) } : NO_STATS;
  return { ok: false, failure: reason, logs: [], stats };
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
