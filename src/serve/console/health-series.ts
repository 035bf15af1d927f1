import type { AuditEntry } from "../../decide/audit/record.ts";

/** Minutes the health page shows. */
export const HEALTH_MINUTES = 60;
/** Durations kept per minute for its percentiles (a busier minute keeps an even sample of them). */
const SAMPLES_PER_MINUTE = 2000;

interface Minute {
  events: number;
  denials: number;
  capabilityDenials: number;
  durations: number[];
  seen: number;
  /** The sandbox kill counter the first time this minute was sampled. */
  killsAtStart: number | undefined;
}

export interface MinutePoint {
  /** Start of the minute, ms since the epoch. */
  readonly at: number;
  readonly events: number;
  readonly denials: number;
  readonly capabilityDenials: number;
  readonly p50Ms: number | undefined;
  readonly p99Ms: number | undefined;
  readonly kills: number;
}

/**
 * Per-minute figures for the last hour, from the audit records as they are appended (and the
 * end of the log at start): events answered, denials, each decision's time (p50, p99), host
 * API calls refused, and sandbox workers killed (sampled from the pool's counter).
 */
export class HealthSeries {
  private readonly minutes = new Map<number, Minute>();

  constructor(
    private readonly kills: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  record(entries: readonly AuditEntry[]): void {
    this.sampleKills();
    for (const entry of entries) {
      const at = Date.parse(entry.completed_at);
      if (!Number.isFinite(at) || at < this.now() - HEALTH_MINUTES * 60_000) continue;
      const minute = this.minute(at);
      if (entry.kind === "decision") {
        minute.events++;
        if (entry.decision === "deny") minute.denials++;
        minute.seen++;
        // Reservoir sampling: every decision of the minute equally likely to be kept.
        if (minute.durations.length < SAMPLES_PER_MINUTE) minute.durations.push(entry.duration_ms);
        else {
          const slot = Math.floor(Math.random() * minute.seen);
          if (slot < SAMPLES_PER_MINUTE) minute.durations[slot] = entry.duration_ms;
        }
      } else {
        minute.capabilityDenials += entry.host_calls.filter((call) => call.outcome === "denied").length;
      }
    }
  }

  /** Remember the kill counter at the start of the current minute (called on every record and page view, and by a timer). */
  sampleKills(): void {
    const minute = this.minute(this.now());
    minute.killsAtStart ??= this.kills();
  }

  points(): MinutePoint[] {
    this.sampleKills();
    const current = startOfMinute(this.now());
    const points: MinutePoint[] = [];
    for (let i = HEALTH_MINUTES - 1; i >= 0; i--) {
      const at = current - i * 60_000;
      const minute = this.minutes.get(at);
      const next = this.minutes.get(at + 60_000)?.killsAtStart ?? (at === current ? this.kills() : undefined);
      const sorted = [...(minute?.durations ?? [])].sort((a, b) => a - b);
      points.push({
        at,
        events: minute?.events ?? 0,
        denials: minute?.denials ?? 0,
        capabilityDenials: minute?.capabilityDenials ?? 0,
        p50Ms: percentile(sorted, 0.5),
        p99Ms: percentile(sorted, 0.99),
        kills: minute?.killsAtStart !== undefined && next !== undefined ? Math.max(0, next - minute.killsAtStart) : 0,
      });
    }
    return points;
  }

  private minute(at: number): Minute {
    const key = startOfMinute(at);
    let minute = this.minutes.get(key);
    if (!minute) {
      minute = { events: 0, denials: 0, capabilityDenials: 0, durations: [], seen: 0, killsAtStart: undefined };
      this.minutes.set(key, minute);
      const oldest = startOfMinute(this.now()) - HEALTH_MINUTES * 60_000;
      for (const old of this.minutes.keys()) if (old < oldest) this.minutes.delete(old);
    }
    return minute;
  }
}

function startOfMinute(at: number): number {
  return Math.floor(at / 60_000) * 60_000;
}

/** Nearest-rank percentile of sorted values; undefined when there are none. */
export function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}
