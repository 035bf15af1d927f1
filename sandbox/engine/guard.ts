import type { LimitName } from "../failure.ts";
import type { SandboxLimits } from "../limits.ts";

/**
 * The clock and the verdict of one invocation. The QuickJS interrupt handler polls
 * `shouldInterrupt()`; once a limit is flagged the guest is interrupted at its next poll
 * (an interrupt is uncatchable in QuickJS), so a handler cannot swallow its own violation.
 *
 * QuickJS polls once per 10,000 calls or loop iterations, so a limit is seen up to one poll
 * interval late. Code that recurses without loops and throws at the stack limit makes each call
 * build a backtrace of every frame (~1 ms at 256 KiB of stack), stretching that interval to
 * seconds: only a kill from outside the worker bounds it (the pool's CPU watch and timeout).
 *
 * CPU time is guest time only: the sum of synchronous slices spent inside QuickJS. Host calls
 * run while no slice is open, so they count toward `timeoutMs` but not `cpuMs`. A slice is timed
 * by the wall clock, which a busy machine stretches (the thread waits for a core): once the
 * slices add up past `cpuMs`, the thread's own CPU clock, where the runtime gives one, decides
 * whether the guest really used it, so a loaded machine does not fail a hook that did not.
 */
const CPU_CHECK_INTERVAL_MS = 2;

export class InvocationGuard {
  private readonly startedAt = performance.now();
  private readonly deadline: number;
  private cpuUsedMs = 0;
  private sliceStart = -1;
  private flagged: { name: LimitName; detail: string | undefined } | undefined;
  private readonly threadCpuAtStart: number | undefined;
  private nextCpuCheck = 0;

  constructor(
    readonly limits: SandboxLimits,
    /** Extra check polled with the clocks: returns a limit to flag (the heap could not grow). */
    private readonly probe: () => LimitName | undefined = () => undefined,
    /** This thread's CPU time in ms (undefined when it cannot be read): the judge once the wall clock says the budget is spent. */
    private readonly threadCpuMs?: () => number | undefined,
  ) {
    this.deadline = this.startedAt + limits.timeoutMs;
    this.threadCpuAtStart = threadCpuMs?.();
  }

  get violation(): { name: LimitName; detail: string | undefined } | undefined {
    return this.flagged;
  }

  flag(name: LimitName, detail?: string): void {
    this.flagged ??= { name, detail };
  }

  shouldInterrupt(): boolean {
    if (this.flagged) return true;
    const probed = this.probe();
    if (probed) {
      this.flag(probed);
      return true;
    }
    const now = performance.now();
    const slice = this.sliceStart >= 0 ? now - this.sliceStart : 0;
    if (this.cpuUsedMs + slice > this.limits.cpuMs && this.cpuReallySpent(now)) {
      this.flag("cpuMs");
      return true;
    }
    if (now > this.deadline) {
      this.flag("timeoutMs");
      return true;
    }
    return false;
  }

  /** Run a synchronous slice of guest execution, accounting its time as guest CPU. */
  enter<T>(fn: () => T): T {
    if (this.sliceStart >= 0) return fn(); // nested (a guest call made from inside a slice)
    this.sliceStart = performance.now();
    try {
      return fn();
    } finally {
      this.cpuUsedMs += performance.now() - this.sliceStart;
      this.sliceStart = -1;
    }
  }

  /** Past the wall-clock budget: has the thread really used `cpuMs`? Read at most every 2 ms. */
  private cpuReallySpent(now: number): boolean {
    if (this.threadCpuAtStart === undefined || !this.threadCpuMs) return true;
    if (now < this.nextCpuCheck) return false;
    this.nextCpuCheck = now + CPU_CHECK_INTERVAL_MS;
    const used = this.threadCpuMs();
    return used === undefined || used - this.threadCpuAtStart > this.limits.cpuMs;
  }

  remainingMs(): number {
    return Math.max(0, this.deadline - performance.now());
  }

  /** Guest CPU time: the thread's own clock where there is one, else the slices' wall time. */
  cpuMs(): number {
    const now = this.threadCpuAtStart !== undefined ? this.threadCpuMs?.() : undefined;
    return now !== undefined && this.threadCpuAtStart !== undefined ? Math.min(this.cpuUsedMs, now - this.threadCpuAtStart) : this.cpuUsedMs;
  }

  wallMs(): number {
    return performance.now() - this.startedAt;
  }
}
