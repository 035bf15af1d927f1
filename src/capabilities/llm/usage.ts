/**
 * Tokens each hook spent per day (UTC), for `tokens_per_day`. The daemon and every `emit` share
 * one file in the data directory (usage-file.ts); `hookbox test` and unit tests count in memory.
 */
export interface LlmUsageStore {
  /** Tokens `hookId` has spent on `day` (YYYY-MM-DD). */
  spent(hookId: string, day: string): Promise<number>;
  /** Add what a call spent; never rejects (a file that cannot be written counts in memory). */
  add(hookId: string, day: string, tokens: number): Promise<void>;
}

export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

export class MemoryLlmUsage implements LlmUsageStore {
  readonly tokens = new Map<string, number>();

  async spent(hookId: string, day: string): Promise<number> {
    return this.tokens.get(`${day}#${hookId}`) ?? 0;
  }

  async add(hookId: string, day: string, tokens: number): Promise<void> {
    const key = `${day}#${hookId}`;
    this.tokens.set(key, (this.tokens.get(key) ?? 0) + tokens);
  }
}
