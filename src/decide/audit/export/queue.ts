import type { AuditEntry } from "../record.ts";

/** A log pipeline the records are shipped to. */
export interface ExportTarget {
  readonly name: string;
  /** Deliver the records in order; reject to have them retried (a PartialDelivery says how many went out first). */
  send(entries: readonly AuditEntry[]): Promise<void>;
  close(): Promise<void>;
}

/** The first `delivered` records of a batch went out before the failure: they are not sent again. */
export class PartialDelivery extends Error {
  constructor(
    readonly delivered: number,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

export interface ExportStats {
  readonly target: string;
  /** Records delivered. */
  readonly sent: number;
  /** Records dropped because the buffer was full (the oldest go first). */
  readonly dropped: number;
  /** Records waiting, in flight included. */
  readonly queued: number;
  /** The last attempt failed; records are retried with backoff. */
  readonly failing: boolean;
  readonly lastError: string | undefined;
}

export interface QueueOptions {
  /** Records held at most, in flight included. */
  readonly capacity: number;
  readonly batchSize: number;
  /** A send that has not settled by then counts as failed (its target is asked again later). */
  readonly sendTimeoutMs: number;
  /** Backoff after a failure: doubles from `initialMs` up to `maxMs`. */
  readonly retry: { readonly initialMs: number; readonly maxMs: number };
}

export const DEFAULT_QUEUE: Omit<QueueOptions, "capacity"> = { batchSize: 256, sendTimeoutMs: 30_000, retry: { initialMs: 500, maxMs: 30_000 } };

/**
 * A bounded buffer in front of one target (OPA's decision logs are the model): `push` never
 * waits and never fails, so the audited answer is never held up by the pipeline behind it. One
 * batch is in flight at a time, in order; a failed batch is retried with exponential backoff; a
 * full buffer drops its oldest records and counts them.
 */
export class ExportQueue {
  private waiting: AuditEntry[] = [];
  private inFlight: readonly AuditEntry[] = [];
  private counts = { sent: 0, dropped: 0 };
  private lastError: string | undefined;
  private failing = false;
  private backoffMs = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private sending: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly target: ExportTarget,
    private readonly options: QueueOptions,
  ) {}

  push(entries: readonly AuditEntry[]): void {
    if (this.closed) return;
    this.waiting.push(...entries);
    this.trim();
    this.pump();
  }

  stats(): ExportStats {
    return {
      target: this.target.name,
      ...this.counts,
      queued: this.waiting.length + this.inFlight.length,
      failing: this.failing,
      lastError: this.lastError,
    };
  }

  /** Give what is buffered up to `graceMs` to go out, then stop (what is left stays in the local file only). */
  async close(graceMs: number): Promise<void> {
    this.closed = true;
    const deadline = Date.now() + graceMs;
    while (!this.failing && (this.sending || this.waiting.length > 0) && Date.now() < deadline) {
      this.pump();
      await Promise.race([this.sending, new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())))]);
    }
    clearTimeout(this.timer);
    // A target still waiting on a hung receiver is not waited for past the grace.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      this.target.close().catch(() => undefined),
      new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now())))),
    ]);
    clearTimeout(timer);
  }

  private trim(): void {
    const over = this.waiting.length + this.inFlight.length - this.options.capacity;
    if (over <= 0) return;
    const cut = Math.min(over, this.waiting.length);
    this.waiting.splice(0, cut);
    this.counts.dropped += cut;
  }

  private pump(): void {
    if (this.sending || this.timer || this.waiting.length === 0) return;
    const batch = this.waiting.splice(0, this.options.batchSize);
    this.inFlight = batch;
    this.sending = this.attempt(batch).finally(() => {
      this.sending = undefined;
      if (!this.closed || !this.failing) this.pump();
    });
  }

  private async attempt(batch: readonly AuditEntry[]): Promise<void> {
    let delivered = 0;
    try {
      await withTimeout(this.target.send(batch), this.options.sendTimeoutMs, this.target.name);
      delivered = batch.length;
    } catch (error) {
      delivered = error instanceof PartialDelivery ? error.delivered : 0;
      this.lastError = error instanceof Error ? error.message : String(error);
      this.failing = true;
    }
    this.counts.sent += delivered;
    this.inFlight = [];
    if (delivered === batch.length) {
      this.failing = false;
      this.backoffMs = 0;
      return;
    }
    // Back to the front, in order; what no longer fits is dropped from the oldest.
    this.waiting.unshift(...batch.slice(delivered));
    this.trim();
    this.backoffMs = Math.min(this.options.retry.maxMs, this.backoffMs === 0 ? this.options.retry.initialMs : this.backoffMs * 2);
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, this.backoffMs);
    (this.timer as { unref?: () => void }).unref?.();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not take the records within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
