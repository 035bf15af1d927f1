import type { AppendHandle, FileHost } from "../runtime/index.ts";
import type { AuditEntry } from "./record.ts";

export interface AuditSinkOptions {
  readonly fs: FileHost;
  /** The live log file; rotated files get .1, .2 … (newest first). */
  readonly path: string;
  readonly maxFileBytes: number;
  readonly keepFiles: number;
  /**
   * Cut a torn last line on open (default). A one-shot writer (emit) sharing the file with others
   * must not: another process may be mid-append.
   */
  readonly repairTail?: boolean;
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
}

/**
 * Told of records once they are in the file, in the order written (the console, `runs`'
 * followers, the exporters). Called synchronously after the write: a listener must only queue
 * work, and what it throws is ignored — an observer never fails or slows an audited answer.
 */
export type AppendListener = (entries: readonly AuditEntry[]) => void;

interface Batch {
  readonly entries: AuditEntry[];
  readonly lines: string[];
  readonly waiters: { resolve: () => void; reject: (error: Error) => void }[];
}

/**
 * The JSONL audit log. A record is written (one write(2) per batch) before the answer it
 * belongs to leaves, so a crash of the daemon loses no acknowledged record. Concurrent
 * requests share a write (group commit). On open, a torn last line left by a crashed writer is
 * cut off, so readers never meet one. Nothing is dropped silently: a failed write fails the
 * requests whose records it carried, and is counted.
 */
export class AuditSink {
  private handle: AppendHandle | undefined;
  private bytes = 0;
  private next: Batch = { entries: [], lines: [], waiters: [] };
  private writing: Promise<void> | undefined;
  private counts = { written: 0, dropped: 0, rotations: 0, repairedTornLines: 0 };
  private lastError: string | undefined;
  private failing = false;
  private closed = false;
  private scheduled = false;
  private readonly listeners = new Set<AppendListener>();

  private constructor(private readonly options: AuditSinkOptions) {}

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
      for (const record of records) {
        this.next.entries.push(record);
        this.next.lines.push(`${JSON.stringify(record)}\n`);
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
    while (this.writing || this.next.lines.length > 0) {
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
    return { path: this.options.path, ...this.counts, lastError: this.lastError, failing: this.failing };
  }

  private async start(): Promise<void> {
    const { fs, path } = this.options;
    const dir = path.slice(0, path.lastIndexOf("/")) || "/";
    await fs.mkdirp(dir, 0o700, true);
    const size = await fs.size(path);
    if (this.options.repairTail !== false && size !== undefined && size > 0) {
      // A writer killed mid-line leaves a tail without its newline: cut it back to the last full line.
      const tail = await fs.readTail(path, Math.min(size, 1024 * 1024));
      if (!tail.endsWith("\n")) {
        const keep = tail.lastIndexOf("\n") + 1;
        const cut = new TextEncoder().encode(tail.slice(keep)).byteLength;
        await fs.truncate(path, size - cut);
        this.counts.repairedTornLines++;
      }
    }
    this.bytes = (await fs.size(path)) ?? 0;
    this.handle = await fs.openAppend(path, 0o600);
    await fs.chmod(path, 0o600);
  }

  private kick(): void {
    if (this.writing || this.next.lines.length === 0) return;
    const batch = this.next;
    this.next = { entries: [], lines: [], waiters: [] };
    this.writing = this.writeBatch(batch).finally(() => {
      this.writing = undefined;
      this.kick();
    });
  }

  private async writeBatch(batch: Batch): Promise<void> {
    const text = batch.lines.join("");
    const size = new TextEncoder().encode(text).byteLength;
    try {
      if (this.bytes > 0 && this.bytes + size > this.options.maxFileBytes) await this.rotate();
      if (!this.handle) throw new Error("the audit log is not open");
      await this.handle.append(text);
      this.bytes += size;
      this.counts.written += batch.lines.length;
      this.failing = false;
      for (const waiter of batch.waiters) waiter.resolve();
      this.tell(batch.entries);
    } catch (error) {
      this.counts.dropped += batch.lines.length;
      this.lastError = (error as Error).message;
      this.failing = true;
      const failure = new Error(`the audit log could not be written (${this.lastError})`);
      for (const waiter of batch.waiters) waiter.reject(failure);
    }
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
    this.bytes = 0;
    this.counts.rotations++;
  }
}
