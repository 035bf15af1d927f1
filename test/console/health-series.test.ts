import { describe, expect, it } from "vitest";
import { HEALTH_MINUTES, HealthSeries, percentile } from "../../src/serve/console/health-series.ts";
import { decisionRecord, runRecord } from "../audit/fixtures.ts";

const MINUTE = 60_000;

describe("HealthSeries", () => {
  it("per minute: events, denials, p50 and p99 of decision times, host calls refused, sandbox kills", () => {
    const clock = { ms: Date.parse("2026-11-24T10:30:10.000Z") };
    let kills = 3;
    const series = new HealthSeries(
      () => kills,
      () => clock.ms,
    );
    const at = (ms: number) => new Date(ms).toISOString();
    const lastMinute = clock.ms - MINUTE;
    series.record([
      decisionRecord({ completed_at: at(lastMinute), decision: "deny", duration_ms: 10 }),
      decisionRecord({ completed_at: at(lastMinute + 1000), decision: "allow", duration_ms: 30 }),
      runRecord({ completed_at: at(lastMinute), host_calls: [{ capability: "readFile", target: "/etc/passwd", outcome: "denied", duration_ms: 1 }] }),
      // Older than the hour shown: not counted.
      decisionRecord({ completed_at: at(clock.ms - (HEALTH_MINUTES + 5) * MINUTE) }),
    ]);
    kills = 5;
    series.record(Array.from({ length: 100 }, (_, i) => decisionRecord({ completed_at: at(clock.ms), decision: "allow", duration_ms: i + 1 })));
    const points = series.points();
    expect(points).toHaveLength(HEALTH_MINUTES);
    const [previous, current] = points.slice(-2);
    expect(previous).toMatchObject({ events: 2, denials: 1, capabilityDenials: 1, p50Ms: 10, p99Ms: 30 });
    expect(current).toMatchObject({ events: 100, denials: 0, p50Ms: 50, p99Ms: 99, kills: 2 });
    expect(points.reduce((sum, p) => sum + p.events, 0)).toBe(102);
  });

  it("percentile is nearest-rank, undefined without values", () => {
    expect(percentile([], 0.5)).toBeUndefined();
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentile([1, 2, 3, 4], 0.99)).toBe(4);
  });
});
