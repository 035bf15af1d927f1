import type { SandboxLimits } from "../limits.ts";

/**
 * CPU time the worker may spend on a step beyond its `cpuMs` before the host kills it: its own
 * work around the guest (a cold start instantiates a QuickJS module and builds a context: 3–8
 * ms measured on Bun and Node), and the clock's granularity (4–10 ms). The guest's own
 * interrupt stops it at `cpuMs` first whenever QuickJS polls it; this is the backstop for when
 * it does not (SECURITY.md F6).
 */
const CPU_SLACK_MS = 50;

/** CPU checks closer together than this are not worth their reads (the clock moves in 4–10 ms steps). */
const CPU_POLL_MIN_MS = 10;

/** What the pool saw of a step it ended by killing its worker. */
export interface KilledStep {
  readonly wallMs: number;
  /** CPU time the worker spent on the step, where it could be read. */
  readonly cpuMs: number | undefined;
}

/**
 * The watch over one running step, on one timer: the worker is killed after `timeoutMs` +
 * `graceMs` of wall clock, or once it spent `cpuMs` + CPU_SLACK_MS of CPU time on the step,
 * where `cpuTimeMs` can read it. The CPU is read only once the budget could have run out (a
 * thread spends at most its wall time), so a step shorter than its budget costs no read at all.
 */
export class StepWatch {
  private readonly startedAt = performance.now();
  private readonly cpuAtStart: number | undefined;
  private readonly wallDeadline: number;
  private readonly cpuBudgetMs: number;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    limits: SandboxLimits,
    graceMs: number,
    private readonly cpuTimeMs: () => number | undefined,
    private readonly kill: (reason: "timeout" | "cpu", seen: KilledStep) => void,
  ) {
    this.cpuAtStart = cpuTimeMs();
    this.wallDeadline = this.startedAt + limits.timeoutMs + graceMs;
    this.cpuBudgetMs = limits.cpuMs + CPU_SLACK_MS;
    // No clock here (no /proc): the in-guest interrupt alone enforces cpuMs, the wall clock this.
    this.wake(this.cpuAtStart === undefined ? Infinity : this.cpuBudgetMs);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private wake(cpuCheckInMs: number): void {
    this.timer = setTimeout(() => this.check(), Math.max(0, Math.min(this.wallDeadline - performance.now(), cpuCheckInMs)));
  }

  private check(): void {
    const now = this.cpuAtStart === undefined ? undefined : this.cpuTimeMs();
    const cpuMs = now === undefined || this.cpuAtStart === undefined ? undefined : now - this.cpuAtStart;
    if (performance.now() >= this.wallDeadline) return this.end("timeout", cpuMs);
    if (this.cpuAtStart === undefined) return this.wake(Infinity);
    // Unreadable: the worker is gone (its exit ends the step) or the read failed; look again.
    if (cpuMs === undefined) return this.wake(CPU_POLL_MIN_MS);
    if (cpuMs > this.cpuBudgetMs) return this.end("cpu", cpuMs);
    this.wake(Math.max(CPU_POLL_MIN_MS, this.cpuBudgetMs - cpuMs));
  }

  private end(reason: "timeout" | "cpu", cpuMs: number | undefined): void {
    this.stop();
    this.kill(reason, { wallMs: performance.now() - this.startedAt, cpuMs });
  }
}
