import type { AuditExportConfig } from "../../../hooks/config/schema.ts";
import type { AuditEntry } from "../record.ts";
import type { ExportTarget } from "./queue.ts";
import { severityOf } from "./syslog.ts";

type OtlpConfig = NonNullable<AuditExportConfig["otlp"]>;

/** OpenTelemetry's severity numbers for syslog's levels (the log data model's mapping table). */
const SEVERITY_NUMBER = { error: 17, warning: 13, notice: 10, info: 9 } as const;

/** What a log record says besides its body: enough to filter the fleet's records without parsing them. */
export function otlpAttributes(entry: AuditEntry): Record<string, string> {
  const base = {
    "hookbox.kind": entry.kind ?? "run",
    "hookbox.event_id": entry.event_id,
    "hookbox.event_type": entry.event_type,
    "session.id": entry.session_id,
  };
  if (entry.kind === "decision")
    return {
      ...base,
      "hookbox.decision": entry.decision,
      ...(entry.decided_by ? { "hookbox.decided_by": entry.decided_by } : {}),
      ...(entry.project ? { "hookbox.project": entry.project } : {}),
    };
  return { ...base, "hookbox.hook_id": entry.hook_id, "hookbox.status": entry.status };
}

/**
 * OTLP logs over HTTP with the OpenTelemetry JS exporter (JSON encoding): one log record per audit
 * record, the record itself as a structured body. The SDK's modules are loaded here, when an
 * OTLP target is configured, never by a daemon that exports nothing. The records are made by the
 * SDK's own logger (so they are what the exporter expects) and collected by a processor that only
 * hands them back: the buffering and retrying are the queue's (queue.ts), which counts drops.
 */
export async function otlpTarget(
  config: OtlpConfig,
  meta: { readonly hostname: string; readonly pid: number; readonly version: string },
): Promise<ExportTarget> {
  const [{ OTLPLogExporter }, { LoggerProvider }, { resourceFromAttributes }] = await Promise.all([
    import("@opentelemetry/exporter-logs-otlp-http"),
    import("@opentelemetry/sdk-logs"),
    import("@opentelemetry/resources"),
  ]);
  const exporter = new OTLPLogExporter({ url: config.endpoint, headers: { ...config.headers }, timeoutMillis: config.timeout_ms });
  type Emitted = Parameters<InstanceType<typeof OTLPLogExporter>["export"]>[0][number];
  let collected: Emitted[] = [];
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({
      "service.name": "hookbox",
      "service.version": meta.version,
      "host.name": meta.hostname,
      "process.pid": meta.pid,
    }),
    processors: [{ onEmit: (record) => void collected.push(record), forceFlush: async () => undefined, shutdown: async () => undefined }],
  });
  const logger = provider.getLogger("hookbox.audit", meta.version);
  return {
    name: "otlp",
    send: (entries) => {
      collected = [];
      for (const entry of entries) {
        const severity = severityOf(entry);
        logger.emit({
          timestamp: new Date(entry.completed_at || entry.started_at),
          severityNumber: SEVERITY_NUMBER[severity],
          severityText: severity.toUpperCase(),
          body: JSON.parse(JSON.stringify(entry)) as Record<string, never>,
          attributes: otlpAttributes(entry),
        });
      }
      const batch = collected;
      collected = [];
      return new Promise((resolve, reject) =>
        exporter.export(batch, (result) =>
          result.code === 0 ? resolve() : reject(result.error ?? new Error(`${config.endpoint} did not take the records`)),
        ),
      );
    },
    close: async () => {
      await exporter.shutdown().catch(() => undefined);
      await provider.shutdown().catch(() => undefined);
    },
  };
}
