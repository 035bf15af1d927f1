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

// The pool reads a worker's clock as each of its steps starts (issue 34): the file stays open and
// is read at offset 0. It must still read the thread's CPU time afresh, and read undefined (and
// let go of the file) once the process is gone.
describe("the pool's clock of a worker's thread", () => {
  it("reads afresh through its open file, and undefined once the process is gone", async (ctx) => {
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, ["-e", "const end = Date.now() + 20000; while (Date.now() < end) Math.sqrt(Math.random());"], {
      stdio: "ignore",
    });
    const clock = threadCpuClock(child.pid, child.pid);
    if (!clock) {
      child.kill();
      return ctx.skip("no per-thread CPU clock on this platform (/proc)");
    }
    const first = clock() as number;
    // However loaded the machine, the spinning child gets 20 ms of CPU within a few seconds.
    let later = first;
    for (let waited = 0; later <= first + 20 && waited < 10_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      later = clock() as number;
    }
    expect(later).toBeGreaterThan(first + 20);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    expect(clock()).toBeUndefined();
    clock.close();
    expect(clock()).toBeUndefined();
  });
});
