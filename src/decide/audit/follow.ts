import type { FileHost } from "../../platform/index.ts";
import { parseEntry } from "./read.ts";
import type { AuditEntry } from "./record.ts";

export interface FollowOptions {
  /** How often the file is looked at. */
  readonly intervalMs: number;
  /** Start at the file's current end (new records only), or at its beginning. */
  readonly from: "end" | "start";
}

/** Bytes read per look: a burst larger than this is read over several looks, in order. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Follows the audit log as any writer appends to it (the daemon, `emit` in its own process):
 * `tail -F` for JSONL. Each look reads from where the last one stopped, through one handle that
 * also says which file it read (a rotation renames the live file to .1 and starts a new one: the
 * rest of the old file is read from .1, then the new one from its start). A line is passed on
 * only once it is complete; lines that are not audit records are skipped.
 */
export class AuditFollower {
  private file: { id: string; offset: number } | undefined;
  private carry = "";
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private looking: Promise<void> = Promise.resolve();
  private readonly decoder = new TextDecoder();

  private constructor(
    private readonly fs: FileHost,
    private readonly path: string,
    private readonly onEntries: (entries: readonly AuditEntry[]) => void,
    private readonly options: FollowOptions,
  ) {}

  static async start(
    fs: FileHost,
    path: string,
    onEntries: (entries: readonly AuditEntry[]) => void,
    options: FollowOptions,
  ): Promise<AuditFollower> {
    const follower = new AuditFollower(fs, path, onEntries, options);
    if (options.from === "end") {
      const now = await fs.readRange(path, 0, 0);
      if (now) follower.file = { id: now.id, offset: now.size };
    }
    follower.schedule(0);
    return follower;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** One look now (tests; the timer does the same). Looks never overlap. */
  poll(): Promise<void> {
    this.looking = this.looking.then(() => this.look()).catch(() => undefined);
    return this.looking;
  }

  private async look(): Promise<void> {
    let range = await this.fs.readRange(this.path, this.file?.offset ?? 0, CHUNK_BYTES);
    if (!range) return;
    if (this.file && range.id !== this.file.id) {
      await this.finishRotated(this.file);
      this.file = undefined;
      range = await this.fs.readRange(this.path, 0, CHUNK_BYTES);
      if (!range) return;
    } else if (this.file && range.size < this.file.offset) {
      // Cut shorter in place (a repaired torn tail, a truncation): start over from its end.
      this.file = { id: range.id, offset: range.size };
      this.carry = "";
      return;
    }
    const offset = this.file?.offset ?? 0;
    this.file = { id: range.id, offset: offset + range.bytes.byteLength };
    this.consume(range.bytes);
    if (range.size > this.file.offset && !this.stopped) await this.look();
  }

  /** The rest of the file that was live before the rotation, now the first rotated one. */
  private async finishRotated(previous: { id: string; offset: number }): Promise<void> {
    let offset = previous.offset;
    for (;;) {
      const rest = await this.fs.readRange(`${this.path}.1`, offset, CHUNK_BYTES);
      if (!rest || rest.id !== previous.id || rest.bytes.byteLength === 0) break;
      offset += rest.bytes.byteLength;
      this.consume(rest.bytes);
    }
    // A line left without its newline in a file nobody appends to any more is not a record.
    this.carry = "";
  }

  private consume(bytes: Uint8Array): void {
    const text = this.carry + this.decoder.decode(bytes, { stream: true });
    const end = text.lastIndexOf("\n");
    if (end < 0) {
      this.carry = text;
      return;
    }
    this.carry = text.slice(end + 1);
    const entries: AuditEntry[] = [];
    for (const line of text.slice(0, end).split("\n")) {
      const entry = line ? parseEntry(line) : undefined;
      if (entry) entries.push(entry);
    }
    if (entries.length > 0) this.onEntries(entries);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.poll().finally(() => this.schedule(this.options.intervalMs));
    }, delayMs);
  }
}
