import { PLATFORM } from "./platform.ts";
import { dlopen, FFIType } from "bun:ffi";
import { closeSync, constants, openSync, renameSync, statSync } from "node:fs";
import type { DaemonHost, FileLock } from "./types.ts";

/**
 * Starting Hookbox's own daemon in the background, on Bun (the binary): an exclusive flock(2) on
 * a lock file beside the socket decides which of several `emit`s starting at once starts it, and
 * the winner hands its lock to the daemon as an inherited descriptor, so the lock is never free
 * between the two. The kernel drops it when the daemon exits, however it exits: no stale state.
 */
const LOCK_EX = 2;
const LOCK_NB = 4;
const F_SETFD = 2;
const FD_CLOEXEC = 1;
/** open(2)'s O_CLOEXEC (node:fs does not name it): the lock reaches the daemon by explicit inheritance only. */
const O_CLOEXEC = PLATFORM.openCloexec ?? 0;
/** The daemon's log is started afresh (the old one kept as .1) past this size. */
const MAX_LOG_BYTES = 1024 * 1024;

interface Libc {
  flock(fd: number, operation: number): number;
  fcntl(fd: number, command: number, argument: number): number;
}

let libc: Libc | undefined | null = null;

function openLibc(): Libc | undefined {
  // flock(2) and fcntl(2) where open(2) has an O_CLOEXEC to pair them with (Linux, macOS).
  const name = PLATFORM.openCloexec === undefined ? undefined : PLATFORM.libc;
  if (!name) return undefined;
  try {
    const lib = dlopen(name, {
      flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
      fcntl: { args: [FFIType.i32, FFIType.i32, FFIType.i32], returns: FFIType.i32 },
    });
    return { flock: (fd, op) => lib.symbols.flock(fd, op), fcntl: (fd, cmd, arg) => lib.symbols.fcntl(fd, cmd, arg) };
  } catch {
    return undefined;
  }
}

/** Daemon start-up on Bun; undefined where flock cannot be bound (then emit never starts a daemon). */
export function bunDaemonHost(executable: string): DaemonHost | undefined {
  if (libc === null) libc = openLibc();
  const c = libc;
  if (!c) return undefined;
  return {
    async tryLock(path): Promise<FileLock | undefined> {
      const fd = openSync(path, constants.O_RDWR | constants.O_CREAT | O_CLOEXEC, 0o600);
      if (c.flock(fd, LOCK_EX | LOCK_NB) !== 0) {
        closeSync(fd);
        return undefined;
      }
      return { fd, release: () => closeSync(fd) };
    },

    holdInheritedLock(fd): boolean {
      // The daemon's own children (sandbox workers, the programs hooks run) must not inherit it:
      // one that outlived the daemon would keep every emit from starting another.
      c.fcntl(fd, F_SETFD, FD_CLOEXEC);
      // Locking again through the same open file is a no-op that succeeds: proof it is ours.
      return c.flock(fd, LOCK_EX | LOCK_NB) === 0;
    },

    spawnDetached({ args, env, logFile, lock, cwd }): number {
      try {
        if ((statSync(logFile, { throwIfNoEntry: false })?.size ?? 0) > MAX_LOG_BYTES) renameSync(logFile, `${logFile}.1`);
      } catch {
        // a log we cannot rotate is appended to
      }
      const log = openSync(logFile, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o600);
      try {
        // Its own session (setsid): the agent's process group and terminal do not take it down.
        // Descriptor 3 is the lock; stdin is closed, stdout and stderr go to the log.
        const child = Bun.spawn([executable, ...args], { cwd, env: { ...env }, detached: true, stdio: ["ignore", log, log, lock.fd] });
        child.unref();
        return child.pid;
      } finally {
        closeSync(log);
      }
    },
  };
}
