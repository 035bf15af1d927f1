import type { AppendHandle, FileHost } from "../../platform/index.ts";
import { describeProblem, linkLines, recordBody, type ChainProblem } from "./chain.ts";
import { AppendLock, type HeldLock } from "../../platform/lock.ts";
import { AUDIT_VERSION, type AuditChainV1, type AuditEntry } from "./record.ts";
import { checkTail, prepareTail } from "./tail.ts";

export interface AuditSinkOptions {
  readonly fs: FileHost;
  /** The live log file; rotated files get .1, .2 … (newest first). */
  readonly path: string;
  /** This process: named in the append lock, so a crashed writer's lock is known for what it is. */
  readonly pid: number;
  readonly maxFileBytes: number;
  readonly keepFiles: number;
  /**
   * At open, under the append lock: cut a torn last line and check the links of the last records
   * (the daemon, so that readers meet neither and a broken tail is known at start). A one-shot
   * writer (emit) skips this: it finds the tail under the same lock when it writes, and cuts a torn
   * line then.
   */
  readonly repairTail?: boolean;
  /** Lines the check at open covers. */
  readonly tailLines?: number;
  /** Override the append lock's timing (tests). */
  readonly lock?: { readonly staleMs?: number; readonly timeoutMs?: number };
}

/** What the check of the chain's tail found at open, and the link to the last line written since. */
export interface ChainStats {
  /** "unchecked": a writer that does not check at open (emit). */
  readonly tail: "intact" | "broken" | "unchecked";
  readonly checkedLinks: number;
  /** The break found at open; the writer then linked a `kind: "chain"` record after it. */
  readonly broken?: { readonly problem: string; readonly file: string; readonly line: number; readonly restartedWith: string | undefined };
  /** The link to the last line this writer appended (or found at open): an anchor to compare later. */
  readonly head: string | undefined;
}

export interface AuditStats {
  readonly path: string;
  readonly written: number;
  /** Records that could not be written (the requests that carried them were refused). */
  readonly dropped: number;
  readonly rotations: number;
  readonly repairedTornLines: number;
  readonly lastError: string | undefined;
  /** The last write failed (or the log could not be opened): answers go out unrecorded until one succeeds. */
  readonly failing: boolean;
  readonly chain: ChainStats;
}

/**
 * Told of records once they are in the file, in the order written (the console, `runs`'
 * followers, the exporters). Called synchronously after the write: a listener must only queue
 * work, and what it throws is ignored — an observer never fails or slows an audited answer.
 */
export type AppendListener = (entries: readonly AuditEntry[]) => void;

interface Batch {
  readonly entries: AuditEntry[];
  readonly bodies: string[];
  readonly waiters: { resolve: () => void; reject: (error: Error) => void }[];
}

/** Where this writer left the file: while its stamp is unchanged nobody else appended or rotated. */
interface Position {
  readonly stamp: string;
  readonly size: number;
  readonly head: string;
}

const DEFAULT_TAIL_LINES = 64;
/** A writer whose lock was broken while it was stopped starts its write over; at most this often. */
const MAX_LOCK_ATTEMPTS = 3;

/**
 * The JSONL audit log, hash-chained (chain.ts). A record is written (one write(2) per batch)
 * before the answer it belongs to leaves, so a crash of the daemon loses no acknowledged record.
 * Concurrent requests share a write (group commit); concurrent processes (the daemon, `emit`s)
 * take the append lock around "find the last line's link, append" (lock.ts), so each record links
 * to the line before it whoever wrote that. Nothing is dropped silently: a failed write fails the
 * requests whose records it carried, and is counted.
 */
export class AuditSink {
  private handle: AppendHandle | undefined;
  private position: Position | undefined;
  private next: Batch = { entries: [], bodies: [], waiters: [] };
  private writing: Promise<void> | undefined;
  private counts = { written: 0, dropped: 0, rotations: 0, repairedTornLines: 0 };
  private lastError: string | undefined;
  private failing = false;
  private closed = false;
  private scheduled = false;
  private chain: ChainStats = { tail: "unchecked", checkedLinks: 0, head: undefined };
  private readonly lock: AppendLock;
  private readonly listeners = new Set<AppendListener>();

  private constructor(private readonly options: AuditSinkOptions) {
    this.lock = new AppendLock({ io: options.fs.lock, path: `${options.path}.lock`, pid: options.pid, ...options.lock });
  }

  static async open(options: AuditSinkOptions): Promise<AuditSink> {
    const sink = new AuditSink(options);
    await sink.start();
    return sink;
  }

  /** Resolves once the records are in the file; rejects (and counts them dropped) if they could not be written. */
  write(records: readonly AuditEntry[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    if (this.closed) {
      this.counts.dropped += records.length;
      return Promise.reject(new Error("the audit log is closed"));
    }
    return new Promise((resolve, reject) => {
      // Serialised now, outside the lock; only the link is added under it.
      for (const record of records) {
        this.next.entries.push(record);
        this.next.bodies.push(recordBody(record));
      }
      this.next.waiters.push({ resolve, reject });
      // Let the records of requests answered in this same tick join one write.
      if (!this.scheduled) {
        this.scheduled = true;
        queueMicrotask(() => {
          this.scheduled = false;
          this.kick();
        });
      }
    });
  }

  /** Wait until everything accepted so far is written. */
  async flush(): Promise<void> {
    while (this.writing || this.next.bodies.length > 0) {
      this.kick();
      await this.writing?.catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    await this.handle?.sync().catch(() => undefined);
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
  }

  /** Observe records as they are appended; returns the unsubscribe function. */
  onAppend(listener: AppendListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stats(): AuditStats {
    return { path: this.options.path, ...this.counts, lastError: this.lastError, failing: this.failing, chain: this.chain };
  }

  private async start(): Promise<void> {
    const { fs, path } = this.options;
    await fs.mkdirp(path.slice(0, path.lastIndexOf("/")) || "/", 0o700, true);
    if (this.options.repairTail === false) return;
    await this.locked(async (held) => {
      if (fs.lock.stamp(path)) await fs.chmod(path, 0o600);
      await this.current();
      const check = await checkTail(fs, path, this.options.tailLines ?? DEFAULT_TAIL_LINES);
      if (!check.problem) {
        this.chain = { tail: "intact", checkedLinks: check.checkedLinks, head: this.position?.head };
        return true;
      }
      const restart = this.restartRecord(check.problem);
      const appended = await this.append([recordBody(restart)], held);
      this.chain = {
        tail: "broken",
        checkedLinks: check.checkedLinks,
        broken: {
          problem: describeProblem(check.problem),
          file: `${path.slice(0, path.lastIndexOf("/") + 1)}${check.problem.file}`,
          line: check.problem.line,
          restartedWith: appended ? restart.id : undefined,
        },
        head: this.position?.head,
      };
      return appended;
    });
  }

  /** The record a writer appends where it found the chain broken: the break stays on record, the chain goes on from here. */
  private restartRecord(problem: ChainProblem): AuditChainV1 {
    const now = new Date().toISOString();
    return {
      v: AUDIT_VERSION,
      kind: "chain",
      id: crypto.randomUUID(),
      at: now,
      found: { problem: problem.kind, file: problem.file, line: problem.line, detail: describeProblem(problem) },
      pid: this.options.pid,
    };
  }

  private kick(): void {
    if (this.writing || this.next.bodies.length === 0) return;
    const batch = this.next;
    this.next = { entries: [], bodies: [], waiters: [] };
    this.writing = this.writeBatch(batch).finally(() => {
      this.writing = undefined;
      this.kick();
    });
  }

  private async writeBatch(batch: Batch): Promise<void> {
    try {
      await this.locked((held) => this.append(batch.bodies, held));
      this.counts.written += batch.bodies.length;
      this.failing = false;
      this.chain = { ...this.chain, head: this.position?.head };
      for (const waiter of batch.waiters) waiter.resolve();
      this.tell(batch.entries);
    } catch (error) {
      this.counts.dropped += batch.bodies.length;
      this.lastError = (error as Error).message;
      this.failing = true;
      const failure = new Error(`the audit log could not be written (${this.lastError})`);
      for (const waiter of batch.waiters) waiter.reject(failure);
    }
  }

  /** Run `step` under the append lock; it returns false when the lock was lost before it appended, and runs again. */
  private async locked(step: (held: HeldLock) => Promise<boolean>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const held = await this.lock.acquire();
      try {
        if (await step(held)) return;
      } finally {
        held.release();
      }
      this.position = undefined;
      if (attempt === MAX_LOCK_ATTEMPTS) throw new Error(`the append lock ${this.options.path}.lock was taken from this writer ${attempt} times`);
    }
  }

  /** Link `bodies` to the last line and append them as one write; false (nothing written) when the lock was lost. */
  private async append(bodies: readonly string[], held: HeldLock): Promise<boolean> {
    const { fs, path, maxFileBytes } = this.options;
    let at = await this.current();
    const { text, head } = linkLines(fs.lock.sha256, bodies, at.head);
    const size = new TextEncoder().encode(text).byteLength;
    // As late as it can be, and before anything changes on disk.
    if (!held.stillHeld()) return false;
    if (at.size > 0 && at.size + size > maxFileBytes) {
      await this.rotate();
      at = { ...at, size: 0 };
    }
    if (!this.handle) throw new Error("the audit log is not open");
    await this.handle.append(text);
    this.position = { stamp: fs.lock.stamp(path)?.token ?? "missing", size: at.size + size, head };
    return true;
  }

  /** Under the lock: where the file ends now. Re-read unless this writer was the last to touch it. */
  private async current(): Promise<Position> {
    const { fs, path } = this.options;
    const seen = fs.lock.stamp(path);
    if (this.position && this.handle && seen?.token === this.position.stamp) return this.position;
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
    const tail = await prepareTail(fs, path, seen?.size ?? 0);
    if (tail.cutBytes > 0) this.counts.repairedTornLines++;
    // Created 0600; one that exists with a looser mode is made 0600 by the daemon at start.
    this.handle = await fs.openAppend(path, 0o600);
    this.position = { stamp: fs.lock.stamp(path)?.token ?? "missing", size: tail.size, head: tail.head };
    return this.position;
  }

  /** Never throws: see AppendListener. */
  private tell(entries: readonly AuditEntry[]): void {
    for (const listener of this.listeners) {
      try {
        listener(entries);
      } catch {
        // An observer's failure is its own.
      }
    }
  }

  private async rotate(): Promise<void> {
    const { fs, path, keepFiles } = this.options;
    await this.handle?.close();
    this.handle = undefined;
    await fs.remove(`${path}.${keepFiles}`);
    for (let i = keepFiles - 1; i >= 1; i--) {
      if ((await fs.size(`${path}.${i}`)) !== undefined) await fs.rename(`${path}.${i}`, `${path}.${i + 1}`);
    }
    if (keepFiles > 0) await fs.rename(path, `${path}.1`);
    else await fs.remove(path);
    this.handle = await fs.openAppend(path, 0o600);
    this.counts.rotations++;
  }
}
