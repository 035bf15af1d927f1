// src/metrics owns the Prometheus metrics (prom-client); it reads other components' counters, never changes them.
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { AuditRecordV1 } from "../audit/record.ts";
import type { Decision } from "../events/types.ts";

/** Live counters that other components own, sampled at scrape time. */
export interface MetricSources {
  sandbox(): { timeoutKills: number; crashes: number; respawns: number; queueRejections: number; queued: number };
  audit(): { written: number; dropped: number; rotations: number };
  approvalsPending(): number;
  registry(): { version: number; hooks: number; problems: number };
}

export class Metrics {
  readonly registry = new Registry();
  private readonly events: Counter<"event_type" | "decision">;
  private readonly runs: Counter<"hook_id" | "status">;
  private readonly duration: Histogram<"hook_id">;
  private readonly denials: Counter<"hook_id" | "capability">;
  private readonly httpErrors: Counter<"code">;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    this.events = new Counter({ name: "hookbox_events_total", help: "Events evaluated, by type and final decision.", labelNames: ["event_type", "decision"], registers });
    this.runs = new Counter({ name: "hookbox_runs_total", help: "Hook runs, by hook and status (completed, failed, skipped, denied).", labelNames: ["hook_id", "status"], registers });
    this.duration = new Histogram({
      name: "hookbox_run_duration_seconds",
      help: "Wall time of hook runs that executed (queueing excluded).",
      labelNames: ["hook_id"],
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers,
    });
    this.denials = new Counter({ name: "hookbox_capability_denials_total", help: "Host API calls refused by the permission checks.", labelNames: ["hook_id", "capability"], registers });
    this.httpErrors = new Counter({ name: "hookbox_http_errors_total", help: "HTTP requests answered with an error, by stable error code.", labelNames: ["code"], registers });
    const sampled = (name: string, help: string, read: () => number, type: "counter" | "gauge" = "gauge") => {
      const Metric = type === "counter" ? Counter : Gauge;
      new Metric({
        name,
        help,
        registers,
        collect(this: Counter | Gauge) {
          const value = read();
          if (this instanceof Gauge) this.set(value);
          else {
            this.reset();
            this.inc(value);
          }
        },
      });
    };
    sampled("hookbox_sandbox_kills_total", "Sandbox workers killed because an invocation overran its timeout.", () => sources.sandbox().timeoutKills, "counter");
    sampled("hookbox_sandbox_crashes_total", "Sandbox workers that died on their own (and were replaced).", () => sources.sandbox().crashes, "counter");
    sampled("hookbox_sandbox_queue_rejections_total", "Invocations refused because the sandbox queue was full.", () => sources.sandbox().queueRejections, "counter");
    sampled("hookbox_sandbox_queued", "Invocations waiting for a sandbox worker.", () => sources.sandbox().queued);
    sampled("hookbox_audit_records_total", "Audit records written.", () => sources.audit().written, "counter");
    sampled("hookbox_audit_dropped_total", "Audit records that could not be written (their requests were refused).", () => sources.audit().dropped, "counter");
    sampled("hookbox_approvals_pending", "Approvals waiting for a user.", () => sources.approvalsPending());
    sampled("hookbox_registry_version", "Registry version (increments on every reload).", () => sources.registry().version);
    sampled("hookbox_registry_hooks", "Hooks loaded.", () => sources.registry().hooks);
    sampled("hookbox_registry_problems", "Problems found in the hook and operator files at the last (re)load.", () => sources.registry().problems);
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

  text(): Promise<string> {
    return this.registry.metrics();
  }

  contentType(): string {
    return this.registry.contentType;
  }
}
