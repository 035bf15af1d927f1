// src/decide/audit/export owns shipping audit records to a fleet's log pipeline (syslog, OTLP); it must not import src/serve or src/cli.
// As they are appended. It reads records and never changes them.
import type { AuditExportConfig } from "../../../hooks/config/schema.ts";
import type { SocketHost } from "../../../platform/index.ts";
import type { AuditEntry } from "../record.ts";
import { otlpTarget } from "./otlp.ts";
import { DEFAULT_QUEUE, ExportQueue, type ExportStats, type ExportTarget } from "./queue.ts";
import { syslogTarget } from "./syslog.ts";

export type { ExportStats } from "./queue.ts";

export interface AuditExport {
  /** Hand records over (an AuditLog's onAppend listener): returns at once, never throws. */
  push(entries: readonly AuditEntry[]): void;
  stats(): readonly ExportStats[];
  /** Let the buffers drain up to `graceMs`, then stop. */
  close(graceMs: number): Promise<void>;
}

export interface ExportDeps {
  readonly sockets: SocketHost;
  readonly hostname: string;
  readonly pid: number;
  readonly version: string;
}

/** One bounded queue per configured target. Rejects (before anything is sent) when a target cannot be set up. */
export async function startAuditExport(config: AuditExportConfig, deps: ExportDeps): Promise<AuditExport> {
  const targets: ExportTarget[] = [];
  if (config.syslog) targets.push(syslogTarget(config.syslog, deps.sockets, { hostname: deps.hostname, pid: deps.pid }));
  if (config.otlp) targets.push(await otlpTarget(config.otlp, deps));
  const queues = targets.map(
    (target) =>
      new ExportQueue(target, {
        ...DEFAULT_QUEUE,
        capacity: config.buffer_records,
        sendTimeoutMs: target.name === "otlp" && config.otlp ? config.otlp.timeout_ms + 1000 : DEFAULT_QUEUE.sendTimeoutMs,
      }),
  );
  return {
    push: (entries) => {
      for (const queue of queues) queue.push(entries);
    },
    stats: () => queues.map((queue) => queue.stats()),
    close: async (graceMs) => {
      await Promise.all(queues.map((queue) => queue.close(graceMs)));
    },
  };
}

/** What the daemon's log says at start. */
export function describeExport(config: AuditExportConfig): string {
  const targets = [config.syslog ? `syslog ${config.syslog.address}` : "", config.otlp ? `OTLP ${config.otlp.endpoint}` : ""].filter(Boolean);
  return `exporting audit records to ${targets.join(" and ")} (buffer: ${config.buffer_records} records per target)`;
}
