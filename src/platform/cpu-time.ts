import { PLATFORM } from "./platform.ts";
import { closeSync, existsSync, openSync, readFileSync, readlinkSync, readSync } from "node:fs";

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
    return msOf(readFileSync(`${task}/${from}`, "latin1"), from);
  } catch {
    return undefined; // the thread (or its process) is gone
  }
}

function msOf(text: string, from: Source): number {
  if (from === "schedstat") return Number(text.split(" ", 1)[0]) / 1e6;
  // The fields after the command name, which is in parentheses and may itself hold ") ".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** Longer than any schedstat or stat line of a thread. */
const LINE_BYTES = 1024;

/** A clock of another thread's CPU time; `close` lets go of what it keeps open (the thread ended). */
export type ThreadCpuClock = (() => number | undefined) & { close(): void };

/**
 * A clock of the CPU time (ms) thread `tid` of process `pid` has used; it reads undefined once
 * the thread is gone. Undefined where threads' CPU time cannot be read (no /proc). The pool
 * reads it as every step starts: the file stays open and is read at offset 0 (one pread(2),
 * not open, read and close), until the thread is gone or `close` is called.
 */
export function threadCpuClock(pid: number | undefined, tid: number | undefined): ThreadCpuClock | undefined {
  source ??= detectSource();
  const from = source;
  if (from === "none" || pid === undefined || tid === undefined) return undefined;
  const task = `/proc/${pid}/task/${tid}`;
  let fd: number | undefined;
  let closed = false;
  const line = new Uint8Array(LINE_BYTES);
  const decoder = new TextDecoder("latin1");
  const close = (): void => {
    closed = true;
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  const read = (): number | undefined => {
    if (closed) return readMs(task, from);
    try {
      fd ??= openSync(`${task}/${from}`, "r");
      return msOf(decoder.decode(line.subarray(0, readSync(fd, line, 0, LINE_BYTES, 0))), from);
    } catch {
      close(); // the thread (or its process) is gone
      return undefined;
    }
  };
  return Object.assign(read, { close });
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
  // Read twice per invocation on the guest's own thread: the file stays open, and a read at
  // offset 0 of a /proc file makes it anew, so a reading is one pread(2) instead of open,
  // read, read and close (~1 µs instead of ~5 µs). Opened on the first reading, from the thread
  // that reads it (thread-self names the thread that opens it). It lives as long as the worker.
  let fd: number | undefined;
  const line = new Uint8Array(LINE_BYTES);
  const decoder = new TextDecoder("latin1");
  return () => {
    try {
      fd ??= openSync(`/proc/thread-self/${from}`, "r");
      return msOf(decoder.decode(line.subarray(0, readSync(fd, line, 0, LINE_BYTES, 0))), from);
    } catch {
      return undefined;
    }
  };
}
