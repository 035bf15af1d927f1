import { PLATFORM } from "./platform.ts";
import { existsSync, readFileSync, readlinkSync } from "node:fs";

/**
 * The CPU time of one sandbox worker's guest thread, read from outside it: the pool's backstop
 * for `cpu_ms` (SECURITY.md F6). QuickJS polls its interrupt once per 10,000 calls or loop
 * iterations, and a guest can stretch that to seconds (a recursion that catches its stack
 * overflows builds a backtrace per call); the pool compares what this reads with the step's
 * budget and kills the worker, whatever the guest is doing.
 *
 * One thread, not the process: the JIT's and the garbage collector's helper threads are not the
 * guest's time. The thread runs guest code only while a step runs and waits while host calls
 * run in the parent, so "host calls don't count" holds here too.
 *
 * Linux only (/proc). Elsewhere (macOS, Windows) there is no clock and `cpu_ms` rests on the
 * in-guest interrupt alone, as before this backstop: the wall clock (`timeout_ms`) still kills.
 */

/** Linux's USER_HZ, the unit of utime and stime in /proc: 100 on every architecture Hookbox ships for. */
const TICKS_PER_SECOND = 100;

type Source = "schedstat" | "stat" | "none";
let source: Source | undefined;

/**
 * schedstat: the scheduler's run time in ns, current to the last tick (4 ms at HZ=250); stat's
 * utime+stime is the same time in 10 ms ticks, for kernels without schedstat (or whose schedstat
 * reads "0 0 0": this very thread has run, so a zero there means it is not kept).
 */
function detectSource(): Source {
  if (PLATFORM.threadCpuClock === "none") return "none";
  try {
    // Deno's permission system may refuse the check itself: then there is no clock.
    if (!existsSync("/proc/thread-self/stat")) return "none";
  } catch {
    return "none";
  }
  try {
    return Number(readFileSync("/proc/thread-self/schedstat", "latin1").split(" ", 1)[0]) > 0 ? "schedstat" : "stat";
  } catch {
    return "stat";
  }
}

function readMs(task: string, from: Source): number | undefined {
  try {
    if (from === "schedstat") return Number(readFileSync(`${task}/schedstat`, "latin1").split(" ", 1)[0]) / 1e6;
    const stat = readFileSync(`${task}/stat`, "latin1");
    // The fields after the command name, which is in parentheses and may itself hold ") ".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined; // the thread (or its process) is gone
  }
}

/**
 * A clock of the CPU time (ms) thread `tid` of process `pid` has used; it reads undefined once
 * the thread is gone. Undefined where threads' CPU time cannot be read (no /proc).
 */
export function threadCpuClock(pid: number | undefined, tid: number | undefined): (() => number | undefined) | undefined {
  source ??= detectSource();
  const from = source;
  if (from === "none" || pid === undefined || tid === undefined) return undefined;
  const task = `/proc/${pid}/task/${tid}`;
  return () => readMs(task, from);
}

/** The kernel's id of the calling thread (Linux), for whoever started the thread to read its CPU time. */
export function currentThreadId(): number | undefined {
  try {
    // "<pid>/task/<tid>", resolved for the thread that reads it.
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined; // no /proc here
  }
}

/**
 * The calling thread's own CPU clock (ms), for the in-guest `cpu_ms` check of a sandbox worker:
 * undefined where it cannot be read.
 */
export function selfThreadCpuClock(): (() => number | undefined) | undefined {
  source ??= detectSource();
  const from = source;
  if (from === "none") return undefined;
  return () => readMs("/proc/thread-self", from);
}
