import { describe, expect, it } from "vitest";
import { currentThreadId, selfThreadCpuClock, threadCpuClock } from "../../src/platform/cpu-time.ts";

/** Burn CPU on this thread until `clock` reads more than `ms` past `from` (bounded: a stuck clock fails, never hangs). */
function spinPast(clock: () => number | undefined, from: number, ms: number): number | undefined {
  const giveUpAt = Date.now() + 10_000;
  let now = clock();
  while ((now === undefined || now <= from + ms) && Date.now() < giveUpAt) {
    for (let i = 0; i < 100_000; i++) Math.sqrt(i);
    now = clock();
  }
  return now;
}

// The guard reads the guest thread's CPU clock twice per invocation; the self clock keeps its
// /proc file open and re-reads it at offset 0. A reading that came from the first one (a file
// the kernel did not make anew) would let a guest's CPU time go unseen.
describe("the sandbox thread's own CPU clock", () => {
  it("reads the thread's CPU time afresh each time, as the /proc file read from scratch does", (ctx) => {
    const clock = selfThreadCpuClock();
    if (!clock) return ctx.skip("no per-thread CPU clock on this platform (/proc)");
    const first = clock();
    expect(first).toBeGreaterThan(0);
    const later = spinPast(clock, first as number, 20);
    expect(later).toBeGreaterThan((first as number) + 20);
    // The same clock read through a fresh open of the same thread's file agrees (to the tick it was read in).
    const scratch = threadCpuClock(process.pid, currentThreadId())?.();
    if (scratch !== undefined) expect(Math.abs(scratch - (clock() as number))).toBeLessThan(20);
  });

  it("keeps reading after many readings (one open file, not one per reading)", (ctx) => {
    const clock = selfThreadCpuClock();
    if (!clock) return ctx.skip("no per-thread CPU clock on this platform (/proc)");
    let last = 0;
    for (let i = 0; i < 5000; i++) {
      const now = clock();
      expect(now).toBeGreaterThanOrEqual(last);
      last = now as number;
    }
  });
});
