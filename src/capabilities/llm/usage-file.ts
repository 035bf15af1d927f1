import { AppendLock } from "../../platform/lock.ts";
import { errorMessage } from "../../core/errors.ts";
import type { FileHost } from "../../platform/index.ts";
import { MemoryLlmUsage, type LlmUsageStore } from "./usage.ts";

export function llmUsageFilePath(dataDir: string): string {
  return `${dataDir}/state/llm-usage.json`;
}

interface UsageFile {
  readonly v: 1;
  /** "YYYY-MM-DD#hook-id" → tokens. */
  readonly tokens: Record<string, number>;
}

/** Days kept: today, and yesterday for a run that began before midnight. */
const KEEP_DAYS = 2;

/**
 * The day's token counts of a data directory, shared by the daemon and every `emit` (as the
 * cooldowns are): a small JSON file read, added to and replaced atomically under a lock. A file
 * that cannot be used is said once in the log; counting then goes on in this process's memory,
 * which only ever adds, so the budget still holds within the process.
 */
export class FileLlmUsage implements LlmUsageStore {
  private readonly memory = new MemoryLlmUsage();
  private readonly lock: AppendLock;
  private warned = false;

  constructor(
    private readonly options: {
      readonly fs: Pick<FileHost, "readText" | "writeTextAtomic" | "mkdirp" | "lock">;
      readonly path: string;
      readonly pid: number;
      readonly log?: (line: string) => void;
    },
  ) {
    this.lock = new AppendLock({ io: options.fs.lock, path: `${options.path}.lock`, pid: options.pid });
  }

  async spent(hookId: string, day: string): Promise<number> {
    const inMemory = await this.memory.spent(hookId, day);
    try {
      const file = await this.read();
      return Math.max(inMemory, file.tokens[`${day}#${hookId}`] ?? 0);
    } catch (error) {
      this.failed(error);
      return inMemory;
    }
  }

  async add(hookId: string, day: string, tokens: number): Promise<void> {
    await this.memory.add(hookId, day, tokens);
    try {
      await this.options.fs.mkdirp(this.options.path.slice(0, this.options.path.lastIndexOf("/")), 0o700);
      const held = await this.lock.acquire();
      try {
        const file = await this.read();
        const kept = Object.entries(file.tokens).filter(([key]) => key.slice(0, 10) >= oldestDay(day));
        const counts: Record<string, number> = Object.fromEntries(kept);
        const key = `${day}#${hookId}`;
        counts[key] = (counts[key] ?? 0) + tokens;
        if (held.stillHeld())
          await this.options.fs.writeTextAtomic(this.options.path, `${JSON.stringify({ v: 1, tokens: counts } satisfies UsageFile)}\n`, 0o600);
      } finally {
        held.release();
      }
    } catch (error) {
      this.failed(error);
    }
  }

  private async read(): Promise<UsageFile> {
    if (this.options.fs.lock.stamp(this.options.path) === undefined) return { v: 1, tokens: {} };
    try {
      const value = JSON.parse(await this.options.fs.readText(this.options.path)) as Partial<UsageFile> | null;
      if (!value || value.v !== 1 || typeof value.tokens !== "object" || value.tokens === null) return { v: 1, tokens: {} };
      return {
        v: 1,
        tokens: Object.fromEntries(
          Object.entries(value.tokens).filter((entry): entry is [string, number] => typeof entry[1] === "number" && Number.isFinite(entry[1])),
        ),
      };
    } catch (error) {
      if (error instanceof SyntaxError) return { v: 1, tokens: {} };
      throw error;
    }
  }

  private failed(error: unknown): void {
    if (!this.warned)
      this.options.log?.(
        `the model token counts ${this.options.path} cannot be used (${errorMessage(error)}): tokens_per_day holds within this process only`,
      );
    this.warned = true;
  }
}

function oldestDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - (KEEP_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
}
