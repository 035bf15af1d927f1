import type { CapabilityIO } from "../../platform/capability-io.ts";
import type { FileHost } from "../../platform/index.ts";
import { ChangeSet, type Operation } from "./changes.ts";
import type { Clock, TimerHandle } from "./clock.ts";

/** One watched path: a file (each of its changes is its own event) or a folder (its changes are gathered into one). */
export interface WatchTarget {
  /** Absolute, inside the workspace. */
  readonly path: string;
  /** Relative to the workspace ("." for the workspace itself). */
  readonly relative: string;
  readonly kind: "file" | "folder";
}

export interface PathState {
  readonly mtimeMs: number;
  readonly size: number;
}

export interface WatchedChange {
  /** Absolute. */
  readonly path: string;
  readonly operation: Operation;
  /** Before the first change of the window (absent for a created file) and after the last (absent for a deleted one). */
  readonly before?: PathState;
  readonly after?: PathState;
}

export interface WatchBatch {
  readonly target: WatchTarget;
  readonly changes: readonly WatchedChange[];
}

/** How many paths all watches of a daemon track together (operator: triggers.max_watched_paths). */
export class PathBudget {
  private used = 0;
  constructor(readonly max: number) {}

  /** Take up to `wanted` more; what was granted. */
  take(wanted: number): number {
    const granted = Math.max(0, Math.min(wanted, this.max - this.used));
    this.used += granted;
    return granted;
  }

  release(count: number): void {
    this.used = Math.max(0, this.used - count);
  }
}

export interface WatcherOptions {
  readonly targets: readonly WatchTarget[];
  readonly recursive: boolean;
  /** Lower-case with the dot; undefined: every file. */
  readonly extensions: readonly string[] | undefined;
  readonly on: readonly Operation[];
  readonly debounceMs: number;
  readonly pollMs: number;
  /** lstat and directory listings that never follow a symbolic link. */
  readonly io: Pick<CapabilityIO, "lstat" | "listDirectory">;
  /** The runtime's file-system events, as a hint to look sooner; polling alone when absent or when they fail. */
  readonly hint?: FileHost["watch"];
  readonly clock: Clock;
  readonly budget: PathBudget;
  readonly onBatch: (batches: readonly WatchBatch[]) => void;
  readonly log: (line: string) => void;
}

/** Directories never looked into: git's own files change on every git command. */
const SKIPPED_DIRS = new Set([".git"]);
/** A scan a file-system event asks for waits this long, so a burst of events makes one scan. */
const HINT_DELAY_MS = 50;
/** However busy a folder stays, its changes are reported at least this many debounce windows after the first. */
const MAX_WINDOWS = 6;

/**
 * Watches files and folders by polling their mtimes and sizes (the seed engine's FileWatcher),
 * looking sooner when the runtime reports a file-system event. Changes are merged per path over a
 * debounce window that restarts with each new change (so a `git checkout` of many files is one
 * batch), reported at the latest MAX_WINDOWS windows after the first change. Symbolic links are
 * neither followed nor reported; `.git` is never looked into; the paths tracked count against a
 * budget shared by every watch.
 */
export class Watcher {
  private states = new Map<string, PathState>();
  private readonly targetOf = new Map<string, WatchTarget>();
  private readonly pending = new ChangeSet();
  private readonly details = new Map<string, { before?: PathState; after?: PathState }>();
  private pollTimer: TimerHandle | undefined;
  private hintTimer: TimerHandle | undefined;
  private flushTimer: TimerHandle | undefined;
  private firstChangeAt: number | undefined;
  private scanning: Promise<void> | undefined;
  private rescan = false;
  private held = 0;
  private stopped = false;
  private warnedBudget = false;
  private hintWatch: { close(): void } | undefined;

  constructor(private readonly options: WatcherOptions) {}

  /** Take the first look (no change is reported for what is already there), then keep looking. */
  async start(): Promise<void> {
    this.states = await this.look();
    if (this.stopped) return;
    const dirs = this.options.targets.map((target) =>
      target.kind === "folder" ? target.path : target.path.slice(0, target.path.lastIndexOf("/")) || "/",
    );
    try {
      this.hintWatch = this.options.hint?.([...new Set(dirs)], () => this.scanSoon(), HINT_DELAY_MS);
    } catch {
      this.hintWatch = undefined;
    }
    this.schedulePoll();
  }

  stop(): void {
    this.stopped = true;
    for (const timer of [this.pollTimer, this.hintTimer, this.flushTimer]) this.options.clock.clearTimeout(timer);
    this.hintWatch?.close();
    this.options.budget.release(this.held);
    this.held = 0;
  }

  /** Look now (tests, and the poll and hint timers). */
  scan(): Promise<void> {
    if (this.scanning) {
      this.rescan = true;
      return this.scanning;
    }
    this.scanning = this.scanOnce().finally(() => {
      this.scanning = undefined;
      if (this.rescan && !this.stopped) {
        this.rescan = false;
        void this.scan();
      }
    });
    return this.scanning;
  }

  private schedulePoll(): void {
    if (this.stopped) return;
    this.pollTimer = this.options.clock.setTimeout(() => void this.scan().finally(() => this.schedulePoll()), this.options.pollMs);
  }

  private scanSoon(): void {
    if (this.stopped || this.hintTimer !== undefined) return;
    this.hintTimer = this.options.clock.setTimeout(() => {
      this.hintTimer = undefined;
      void this.scan();
    }, HINT_DELAY_MS);
  }

  private async scanOnce(): Promise<void> {
    const next = await this.look();
    if (this.stopped) return;
    const previous = this.states;
    this.states = next;
    let changed = false;
    for (const [path, after] of next) {
      const before = previous.get(path);
      if (!before) changed = this.note(path, "created", undefined, after) || changed;
      else if (before.mtimeMs !== after.mtimeMs || before.size !== after.size) changed = this.note(path, "modified", before, after) || changed;
    }
    for (const [path, before] of previous) if (!next.has(path)) changed = this.note(path, "deleted", before, undefined) || changed;
    if (changed) this.armFlush();
  }

  private note(path: string, operation: Operation, before: PathState | undefined, after: PathState | undefined): boolean {
    this.pending.add(path, operation);
    const known = this.details.get(path);
    this.details.set(path, { ...(known ? (known.before ? { before: known.before } : {}) : before ? { before } : {}), ...(after ? { after } : {}) });
    return true;
  }

  private armFlush(): void {
    const now = this.options.clock.now();
    this.firstChangeAt ??= now;
    const latest = this.firstChangeAt + MAX_WINDOWS * Math.max(1, this.options.debounceMs);
    this.options.clock.clearTimeout(this.flushTimer);
    this.flushTimer = this.options.clock.setTimeout(() => this.flush(), Math.max(0, Math.min(this.options.debounceMs, latest - now)));
  }

  private flush(): void {
    this.flushTimer = undefined;
    this.firstChangeAt = undefined;
    const changes = this.pending.drain().filter((change) => this.options.on.includes(change.operation));
    const details = new Map(this.details);
    this.details.clear();
    const batches = new Map<WatchTarget, WatchedChange[]>();
    for (const change of changes) {
      const target = this.targetOf.get(change.path);
      if (!target) continue;
      const detail = details.get(change.path) ?? {};
      const list = batches.get(target) ?? [];
      list.push({
        ...change,
        ...(change.operation !== "created" && detail.before ? { before: detail.before } : {}),
        ...(change.operation !== "deleted" && detail.after ? { after: detail.after } : {}),
      });
      batches.set(target, list);
    }
    // Paths gone since stop counting.
    for (const path of details.keys()) if (!this.states.has(path)) this.targetOf.delete(path);
    const out: WatchBatch[] = [];
    for (const [target, list] of batches) {
      // A file watch reports each file on its own; a folder its changes together.
      if (target.kind === "file") for (const change of list) out.push({ target, changes: [change] });
      else out.push({ target, changes: list });
    }
    if (out.length > 0) this.options.onBatch(out);
  }

  /** Every tracked path's state now, within the budget. */
  private async look(): Promise<Map<string, PathState>> {
    const found = new Map<string, PathState>();
    const wanted: [string, PathState, WatchTarget][] = [];
    for (const target of this.options.targets) {
      if (target.kind === "file") {
        const info = await this.options.io.lstat(target.path).catch(() => undefined);
        if (info?.kind === "file") wanted.push([target.path, { mtimeMs: info.mtimeMs, size: info.size }, target]);
        continue;
      }
      await this.walk(target, wanted);
    }
    this.options.budget.release(this.held);
    this.held = this.options.budget.take(wanted.length);
    if (this.held < wanted.length && !this.warnedBudget) {
      this.warnedBudget = true;
      this.options.log(
        `a watch of ${this.options.targets.map((t) => t.relative).join(", ")} tracks ${this.held} of ${wanted.length} files: triggers.max_watched_paths (${this.options.budget.max}) is reached; raise it or watch less`,
      );
    }
    for (const [path, state, target] of wanted.slice(0, this.held)) {
      found.set(path, state);
      this.targetOf.set(path, target);
    }
    return found;
  }

  private async walk(target: WatchTarget, into: [string, PathState, WatchTarget][]): Promise<void> {
    const queue = [target.path];
    const limit = this.options.budget.max;
    while (queue.length > 0 && into.length < limit) {
      const dir = queue.shift() as string;
      const listing = await this.options.io.listDirectory(dir).catch(() => undefined);
      if (!listing) continue;
      for (const entry of [...listing.entries].sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const path = `${dir}/${entry.name}`;
        if (entry.kind === "directory") {
          if (this.options.recursive && !SKIPPED_DIRS.has(entry.name)) queue.push(path);
        } else if (entry.kind === "file" && this.wantsFile(entry.name)) {
          const info = await this.options.io.lstat(path).catch(() => undefined);
          if (info?.kind === "file") into.push([path, { mtimeMs: info.mtimeMs, size: info.size }, target]);
        }
      }
    }
  }

  private wantsFile(name: string): boolean {
    const extensions = this.options.extensions;
    return extensions === undefined || extensions.some((ext) => name.toLowerCase().endsWith(ext));
  }
}
