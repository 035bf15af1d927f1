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
 * run while no slice is open, so they count toward `timeoutMs` but not `cpuMs`.
 */
export class InvocationGuard {
  private readonly startedAt = performance.now();
  private readonly deadline: number;
  private cpuUsedMs = 0;
  private sliceStart = -1;
  private flagged: { name: LimitName; detail: string | undefined } | undefined;

  constructor(
    readonly limits: SandboxLimits,
    /** Extra check polled with the clocks: returns a limit to flag (the heap could not grow). */
    private readonly probe: () => LimitName | undefined = () => undefined,
  ) {
    this.deadline = this.startedAt + limits.timeoutMs;
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
    if (this.cpuUsedMs + slice > this.limits.cpuMs) {
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

  remainingMs(): number {
    return Math.max(0, this.deadline - performance.now());
  }

  cpuMs(): number {
    return this.cpuUsedMs;
  }

  wallMs(): number {
    return performance.now() - this.startedAt;
  }
}
