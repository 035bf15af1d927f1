// src/decide/metrics owns the Prometheus metrics; it reads other components' counters, never changes them.
// Series live in plain Maps (series.ts); prom-client formats them, loaded at the first scrape.
import type { Registry } from "prom-client";
import type { AuditRecordV1 } from "../audit/record.ts";
import type { Decision } from "../../core/events/types.ts";
import type { ExportStats } from "../audit/export/index.ts";
import { LabeledCounter, LabeledHistogram, SampledLabeled, SampledValue, type ExposedMetric } from "./series.ts";

/** prom-client's Registry.PROMETHEUS_CONTENT_TYPE, known before the library is loaded. */
const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** Live counters that other components own, sampled at scrape time. */
export interface MetricSources {
  sandbox(): { timeoutKills: number; cpuKills: number; crashes: number; respawns: number; queueRejections: number; queued: number };
  audit(): { written: number; dropped: number; rotations: number; failing: boolean; chain: { tail: string } };
  approvalsPending(): number;
  hookSets(): { projects: number };
  /** The audit export's targets (none when it is not configured). */
  exports?(): readonly ExportStats[];
}

export class Metrics {
  private readonly events = new LabeledCounter("hookbox_events_total", "Events evaluated, by type and final decision.");
  private readonly runs = new LabeledCounter("hookbox_runs_total", "Hook runs, by hook and status (completed, failed, skipped, denied).");
  private readonly duration = new LabeledHistogram(
    "hookbox_run_duration_seconds",
    "Wall time of hook runs that executed (queueing excluded).",
    [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  );
  private readonly denials = new LabeledCounter("hookbox_capability_denials_total", "Host API calls refused by the permission checks.");
  private readonly httpErrors = new LabeledCounter("hookbox_http_errors_total", "HTTP requests answered with an error, by stable error code.");
  private readonly all: readonly ExposedMetric[];
  private registry: Promise<Registry> | undefined;
  private contentTypeText = PROMETHEUS_CONTENT_TYPE;

  constructor(sources: MetricSources) {
    const sampled = (name: string, help: string, read: () => number, type: "counter" | "gauge" = "gauge") => new SampledValue(name, help, type, read);
    this.all = [
      this.events,
      this.runs,
      this.duration,
      this.denials,
      this.httpErrors,
      sampled(
        "hookbox_sandbox_kills_total",
        "Sandbox workers killed because an invocation overran its timeout.",
        () => sources.sandbox().timeoutKills,
        "counter",
      ),
      sampled(
        "hookbox_sandbox_cpu_kills_total",
        "Sandbox workers killed because the host measured a guest past its cpu_ms.",
        () => sources.sandbox().cpuKills,
        "counter",
      ),
      sampled(
        "hookbox_sandbox_crashes_total",
        "Sandbox workers that died on their own (and were replaced).",
        () => sources.sandbox().crashes,
        "counter",
      ),
      sampled(
        "hookbox_sandbox_queue_rejections_total",
        "Invocations refused because the sandbox queue was full.",
        () => sources.sandbox().queueRejections,
        "counter",
      ),
      sampled("hookbox_sandbox_queued", "Invocations waiting for a sandbox worker.", () => sources.sandbox().queued),
      sampled("hookbox_audit_records_total", "Audit records written.", () => sources.audit().written, "counter"),
      sampled(
        "hookbox_audit_dropped_total",
        "Audit records that could not be written (their requests were refused).",
        () => sources.audit().dropped,
        "counter",
      ),
      sampled("hookbox_audit_failing", "1 while the audit log cannot be written (decisions are answered unrecorded).", () =>
        sources.audit().failing ? 1 : 0,
      ),
      sampled(
        "hookbox_audit_chain_broken",
        "1 when the daemon found the audit log's hash chain broken at start (hookbox audit verify says where).",
        () => (sources.audit().chain.tail === "broken" ? 1 : 0),
      ),
      sampled("hookbox_approvals_pending", "Approvals waiting for a user.", () => sources.approvalsPending()),
      sampled("hookbox_projects_loaded", "Projects whose hook sets are loaded.", () => sources.hookSets().projects),
      ...exportSeries(() => sources.exports?.() ?? []),
    ];
  }

  recordEvent(decision: Decision, records: readonly AuditRecordV1[]): void {
    this.events.inc({ event_type: decision.event_type, decision: decision.decision });
    for (const record of records) {
      this.runs.inc({ hook_id: record.hook_id, status: record.status });
      if (record.status !== "skipped") this.duration.observe({ hook_id: record.hook_id }, record.duration_ms / 1000);
      for (const call of record.host_calls) if (call.outcome === "denied") this.denials.inc({ hook_id: record.hook_id, capability: call.capability });
    }
  }

  recordHttpError(code: string): void {
    this.httpErrors.inc({ code });
  }

  async text(): Promise<string> {
    this.registry ??= import("prom-client").then(({ Registry }) => {
      const registry = new Registry();
      // The series are duck-typed metrics: Registry only calls get() and reads name and type.
      for (const metric of this.all) registry.registerMetric(metric as unknown as Parameters<Registry["registerMetric"]>[0]);
      return registry;
    });
    const registry = await this.registry;
    this.contentTypeText = registry.contentType;
    return registry.metrics();
  }

  contentType(): string {
    return this.contentTypeText;
  }
}

/** Per export target: what went out, what was dropped for want of room (OPA's decision-log counters), what waits. */
function exportSeries(read: () => readonly ExportStats[]): ExposedMetric[] {
  const per = (value: (stats: ExportStats) => number) => () => read().map((stats) => ({ labels: { target: stats.target }, value: value(stats) }));
  return [
    new SampledLabeled(
      "hookbox_audit_export_sent_total",
      "Audit records delivered to an export target.",
      "counter",
      per((s) => s.sent),
    ),
    new SampledLabeled(
      "hookbox_audit_export_dropped_total",
      "Audit records dropped because an export target's buffer was full (they stay in the local audit file).",
      "counter",
      per((s) => s.dropped),
    ),
    new SampledLabeled(
      "hookbox_audit_export_queued",
      "Audit records waiting for an export target.",
      "gauge",
      per((s) => s.queued),
    ),
    new SampledLabeled(
      "hookbox_audit_export_failing",
      "1 while an export target's last attempt failed (records are retried with backoff).",
      "gauge",
      per((s) => (s.failing ? 1 : 0)),
    ),
  ];
}
