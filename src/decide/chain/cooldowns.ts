import { AppendLock } from "../../platform/lock.ts";
import { errorMessage } from "../../core/errors.ts";
import type { FileHost } from "../../platform/index.ts";

/**
 * When each hook last ran, per project: what `cooldown_seconds` and a periodic trigger's interval
 * are measured from (the seed engine's `_last_run_time`). A run is claimed when it is launched,
 * not when it ends, so a second trigger arriving meanwhile cannot race past the cooldown.
 */
export interface CooldownStore {
  /**
   * Claim a run of each hook at `now`: recorded, unless its cooldown has not passed (then it is
   * left out of the answer's `claimed` and its wait is in `refused`). `bypass` (a manual fire)
   * records the run whatever the cooldown says. Never rejects: a store that cannot be read or
   * written says so in `problem` and claims from what this process remembers.
   */
  claim(runs: readonly CooldownClaim[], now: number, options?: { readonly bypass?: boolean }): Promise<ClaimResult>;
  /** When this hook last ran (epoch ms), as far as the store knows. */
  lastRun(key: string): Promise<number | undefined>;
}

export interface CooldownClaim {
  /** cooldownKey(project, hookId). */
  readonly key: string;
  readonly cooldownMs: number;
}

export interface ClaimResult {
  /** Keys refused, with the milliseconds left and when the hook last ran. */
  readonly refused: ReadonlyMap<string, { readonly remainingMs: number; readonly lastRunAt: number }>;
  /** Set when the store's file could not be used (the claim fell back on this process's memory). */
  readonly problem?: string;
}

/** Cooldowns are per hook and per project: a user's hook runs in every project it is loaded for. */
export function cooldownKey(project: string | undefined, hookId: string): string {
  return `${project ?? "(no project)"}#${hookId}`;
}

/** In one process's memory: `hookbox test`, unit tests, and the fallback of the file store. */
export class MemoryCooldowns implements CooldownStore {
  readonly lastRuns = new Map<string, number>();

  async claim(runs: readonly CooldownClaim[], now: number, options: { readonly bypass?: boolean } = {}): Promise<ClaimResult> {
    return { refused: claimIn(this.lastRuns, runs, now, options.bypass === true) };
  }

  async lastRun(key: string): Promise<number | undefined> {
    return this.lastRuns.get(key);
  }
}

function claimIn(
  lastRuns: Map<string, number>,
  runs: readonly CooldownClaim[],
  now: number,
  bypass: boolean,
): Map<string, { remainingMs: number; lastRunAt: number }> {
  const refused = new Map<string, { remainingMs: number; lastRunAt: number }>();
  for (const run of runs) {
    const last = lastRuns.get(run.key);
    const remainingMs = last === undefined || bypass ? 0 : Math.max(0, last + run.cooldownMs - now);
    if (remainingMs > 0) refused.set(run.key, { remainingMs, lastRunAt: last as number });
    else lastRuns.set(run.key, now);
  }
  return refused;
}

/** Entries kept in the file at most (the least recently run are dropped first). */
const MAX_ENTRIES = 10_000;
/** Entries older than this are dropped: no cooldown or interval is longer. */
const MAX_AGE_MS = 31 * 24 * 3600 * 1000;

interface StateFile {
  readonly v: 1;
  /** cooldownKey → epoch ms of the last run. */
  readonly last_run: Record<string, number>;
}

export interface FileCooldownsOptions {
  readonly fs: Pick<FileHost, "readText" | "writeTextAtomic" | "mkdirp" | "lock">;
  /** `<data dir>/state/cooldowns.json`. */
  readonly path: string;
  readonly pid: number;
  readonly log?: (line: string) => void;
}

export function cooldownsFilePath(dataDir: string): string {
  return `${dataDir}/state/cooldowns.json`;
}

/**
 * The cooldowns of a data directory, shared by the daemon and every `emit` evaluating on its own:
 * a small JSON file read and replaced (atomically) under the same kind of lock the audit log's
 * writers take. Only hooks with a cooldown or a schedule touch it, so an event whose hooks have
 * none costs nothing. The file is re-read only when its stamp changed since this process last
 * read or wrote it.
 */
export class FileCooldowns implements CooldownStore {
  private readonly memory = new Map<string, number>();
  private readonly lock: AppendLock;
  private stamp: string | undefined;
  private warned = false;
  private dirReady = false;

  constructor(private readonly options: FileCooldownsOptions) {
    this.lock = new AppendLock({ io: options.fs.lock, path: `${options.path}.lock`, pid: options.pid });
  }

  async claim(runs: readonly CooldownClaim[], now: number, options: { readonly bypass?: boolean } = {}): Promise<ClaimResult> {
    if (runs.length === 0) return { refused: new Map() };
    try {
      // The lock lives beside the file: its directory must exist first.
      if (!this.dirReady) await this.options.fs.mkdirp(this.options.path.slice(0, this.options.path.lastIndexOf("/")), 0o700);
      this.dirReady = true;
      const held = await this.lock.acquire();
      try {
        await this.load();
        const refused = claimIn(this.memory, runs, now, options.bypass === true);
        if (refused.size < runs.length && held.stillHeld()) await this.save(now);
        return { refused };
      } finally {
        held.release();
      }
    } catch (error) {
      return { refused: claimIn(this.memory, runs, now, options.bypass === true), problem: this.failed(error) };
    }
  }

  async lastRun(key: string): Promise<number | undefined> {
    try {
      await this.load();
    } catch (error) {
      this.failed(error);
    }
    return this.memory.get(key);
  }

  /** The file's entries, merged over memory (a newer run wins either way). */
  private async load(): Promise<void> {
    const seen = this.options.fs.lock.stamp(this.options.path);
    if (seen === undefined || seen.token === this.stamp) return;
    const parsed = parseState(await this.options.fs.readText(this.options.path));
    for (const [key, at] of Object.entries(parsed.last_run)) {
      if ((this.memory.get(key) ?? -Infinity) < at) this.memory.set(key, at);
    }
    this.stamp = seen.token;
  }

  private async save(now: number): Promise<void> {
    const entries = [...this.memory.entries()]
      .filter(([, at]) => now - at <= MAX_AGE_MS)
      .sort((a, b) => b[1] - a[1])
      .slice(0, MAX_ENTRIES);
    this.memory.clear();
    for (const [key, at] of entries) this.memory.set(key, at);
    const state: StateFile = { v: 1, last_run: Object.fromEntries(entries) };
    await this.options.fs.writeTextAtomic(this.options.path, `${JSON.stringify(state)}\n`, 0o600);
    this.stamp = this.options.fs.lock.stamp(this.options.path)?.token;
  }

  private failed(error: unknown): string {
    const message = `the cooldown state ${this.options.path} cannot be used (${errorMessage(error)}): cooldowns hold within this process only`;
    if (!this.warned) this.options.log?.(message);
    this.warned = true;
    return message;
  }
}

/** A file that is not ours (or was cut) counts as empty: cooldowns only ever suppress runs. */
function parseState(text: string): StateFile {
  try {
    const value = JSON.parse(text) as Partial<StateFile> | null;
    if (!value || value.v !== 1 || typeof value.last_run !== "object" || value.last_run === null) return { v: 1, last_run: {} };
    const entries = Object.entries(value.last_run).filter(
      (entry): entry is [string, number] => typeof entry[1] === "number" && Number.isFinite(entry[1]),
    );
    return { v: 1, last_run: Object.fromEntries(entries) };
  } catch {
    return { v: 1, last_run: {} };
  }
}
