import type { LockIO } from "./types.ts";

/**
 * The advisory lock every writer of one audit log takes around "read the link to the last line,
 * append": the daemon per batch, `emit` once. A symbolic link whose target names the holder
 * (`<pid>:<ms since epoch>:<nonce>`): symlink(2) creates it with its content in one step, so a
 * waiter never reads a half-written lock (the trick Emacs uses for its lock files); flock is not
 * reachable from Node, Bun or Deno without FFI.
 *
 * A holder that crashed leaves its lock behind: a lock is stale when its holder's process is gone
 * (after `deadHolderGraceMs`, which also covers a holder in another pid namespace) or, whatever
 * the process, when it is older than `staleMs` (a reused pid, a stopped holder). Appends hold it
 * for well under a millisecond. Breaking a stale lock goes through a second lock (`<lock>.break`)
 * so two waiters that judged the same lock stale cannot remove a fresh one; a holder whose lock
 * was broken while it was stopped finds out before it appends (`stillHeld`) and starts over.
 */
export interface AppendLockOptions {
  readonly io: LockIO;
  /** The lock file: `<log>.lock`. */
  readonly path: string;
  readonly pid: number;
  readonly staleMs?: number;
  readonly deadHolderGraceMs?: number;
  /** How long to wait for a live holder before the write fails. */
  readonly timeoutMs?: number;
}

export interface HeldLock {
  /** False when another writer broke this lock as stale: what was read under it is no longer current. */
  stillHeld(): boolean;
  release(): void;
}

export const LOCK_STALE_MS = 5000;
const DEAD_HOLDER_GRACE_MS = 500;
const MAX_WAIT_STEP_MS = 8;

interface Holder {
  readonly token: string;
  readonly pid: number | undefined;
  readonly since: number | undefined;
}

export class AppendLock {
  private readonly staleMs: number;
  private readonly deadHolderGraceMs: number;
  private readonly timeoutMs: number;
  private sequence = 0;

  constructor(private readonly options: AppendLockOptions) {
    this.staleMs = options.staleMs ?? LOCK_STALE_MS;
    this.deadHolderGraceMs = options.deadHolderGraceMs ?? DEAD_HOLDER_GRACE_MS;
    this.timeoutMs = options.timeoutMs ?? this.staleMs + 2000;
  }

  async acquire(): Promise<HeldLock> {
    const { io, path } = this.options;
    const token = this.newToken();
    const deadline = Date.now() + this.timeoutMs;
    let step = 1;
    for (;;) {
      if (io.create(path, token)) return { stillHeld: () => io.holder(path) === token, release: () => this.removeIfOurs(path, token) };
      const holder = this.holder(path);
      if (holder && this.isStale(holder, this.staleMs)) {
        await this.breakStale(holder);
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(
          `${path} has been held by process ${holder?.pid ?? "?"} for longer than ${this.timeoutMs} ms; if no Hookbox is writing, remove it`,
        );
      }
      await sleep(step);
      step = Math.min(step * 2, MAX_WAIT_STEP_MS);
    }
  }

  private newToken(): string {
    return `${this.options.pid}:${Date.now()}:${++this.sequence}${Math.random().toString(36).slice(2, 8)}`;
  }

  private holder(path: string): Holder | undefined {
    const token = this.options.io.holder(path);
    if (token === undefined) return undefined; // released between our attempt and this read
    const [pid, since] = token.split(":").map(Number);
    return { token, pid: Number.isInteger(pid) && (pid as number) > 0 ? pid : undefined, since: Number.isFinite(since) ? since : undefined };
  }

  private isStale(holder: Holder, staleMs: number): boolean {
    // Not a token we write: nothing of ours holds it.
    if (holder.pid === undefined || holder.since === undefined) return true;
    const age = Date.now() - holder.since;
    if (age > staleMs) return true;
    return age > this.deadHolderGraceMs && !this.options.io.processExists(holder.pid);
  }

  /** Remove a lock judged stale, unless another waiter did first (and a fresh holder took it since). */
  private async breakStale(stale: Holder): Promise<void> {
    const { io, path } = this.options;
    const breaker = `${path}.break`;
    const token = this.newToken();
    if (!io.create(breaker, token)) {
      // Another waiter is breaking it; one that died doing so left this lock behind.
      const other = this.holder(breaker);
      if (other && this.isStale(other, this.deadHolderGraceMs * 2)) this.removeIfOurs(breaker, other.token);
      else await sleep(1);
      return;
    }
    try {
      if (io.holder(path) === stale.token) io.remove(path);
    } finally {
      this.removeIfOurs(breaker, token);
    }
  }

  private removeIfOurs(path: string, token: string): void {
    if (this.options.io.holder(path) === token) this.options.io.remove(path);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
