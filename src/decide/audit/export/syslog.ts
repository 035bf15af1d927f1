import type { AuditExportConfig } from "../../../hooks/config/schema.ts";
import { SYSLOG_ADDRESS, SYSLOG_FACILITIES } from "../../../hooks/config/schema.ts";
import type { MessageSocket, MessageTarget, SocketHost } from "../../../platform/index.ts";
import type { AuditEntry } from "../record.ts";
import { PartialDelivery, type ExportTarget } from "./queue.ts";

type SyslogConfig = NonNullable<AuditExportConfig["syslog"]>;

/** RFC 5424 §6.2.1 severities. */
const SEVERITY = { error: 3, warning: 4, notice: 5, info: 6 } as const;

/** How much a record matters to someone watching the fleet: refusals and failures stand out. */
export function severityOf(entry: AuditEntry): keyof typeof SEVERITY {
  if (entry.kind === "decision") {
    if (entry.incomplete) return "warning";
    return entry.decision === "allow" ? "info" : "notice";
  }
  if (entry.status === "failed") return "error";
  return entry.status === "denied" ? "notice" : "info";
}

export interface SyslogHeader {
  readonly facility: keyof typeof SYSLOG_FACILITIES;
  readonly hostname: string;
  readonly appName: string;
  readonly pid: number;
}

/**
 * One record as an RFC 5424 message: `<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID - MSG`,
 * MSGID "decision" or "run", no structured data, the record's JSON as MSG (rsyslog's
 * mmjsonparse or any JSON-aware relay reads it). A record over `maxBytes` is replaced by a stub
 * that names it; the full record stays in the local audit file.
 */
export function formatSyslog(entry: AuditEntry, header: SyslogHeader, maxBytes: number): string {
  const pri = SYSLOG_FACILITIES[header.facility] * 8 + SEVERITY[severityOf(entry)];
  const timestamp = entry.completed_at || entry.started_at || new Date().toISOString();
  const head = `<${pri}>1 ${timestamp} ${printable(header.hostname, 255)} ${printable(header.appName, 48)} ${header.pid} ${entry.kind === "decision" ? "decision" : "run"} - `;
  const json = JSON.stringify(entry);
  const bytes = new TextEncoder().encode(head + json).byteLength;
  if (bytes <= maxBytes) return head + json;
  return (
    head +
    JSON.stringify({
      v: entry.v,
      kind: entry.kind ?? "run",
      id: entry.id,
      event_id: entry.event_id,
      truncated: { bytes, limit: maxBytes, see: "the local audit file" },
    })
  );
}

/** RFC 5424 header fields are printable US-ASCII without spaces; "-" is the nil value. */
function printable(text: string, max: number): string {
  const clean = text.replace(/[^!-~]/g, "").slice(0, max);
  return clean || "-";
}

export function parseSyslogAddress(address: string): MessageTarget {
  const match = SYSLOG_ADDRESS.exec(address);
  if (!match) throw new Error(`not a syslog address: ${address}`);
  if (match[1]) return { kind: match[1] === "unix" ? "unix-dgram" : "unix-stream", path: match[2] as string };
  const hostname = (match[4] as string).replace(/^\[|\]$/g, "");
  return { kind: match[3] as "udp" | "tcp", hostname, port: Number(match[5]) };
}

/** Syslog over a socket: one datagram per message, or octet-counted frames on a stream (RFC 6587 §3.4.1). */
export function syslogTarget(config: SyslogConfig, sockets: SocketHost, header: Omit<SyslogHeader, "facility" | "appName">): ExportTarget {
  const target = parseSyslogAddress(config.address);
  const stream = target.kind === "tcp" || target.kind === "unix-stream";
  const full: SyslogHeader = { ...header, facility: config.facility, appName: config.app_name };
  const maxBytes = Math.min(config.max_message_kb * 1024, stream ? Number.POSITIVE_INFINITY : 65_000);
  let socket: MessageSocket | undefined;
  const encoder = new TextEncoder();
  return {
    name: "syslog",
    send: async (entries) => {
      let delivered = 0;
      try {
        socket ??= await sockets.open(target, 5000);
        for (const entry of entries) {
          const message = encoder.encode(formatSyslog(entry, full, maxBytes));
          await socket.send(stream ? concat(encoder.encode(`${message.byteLength} `), message) : message);
          delivered++;
        }
      } catch (error) {
        // Reconnect on the next attempt (a relay restarted, a socket recreated).
        socket?.close();
        socket = undefined;
        throw new PartialDelivery(delivered, error);
      }
    },
    close: async () => socket?.close(),
  };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}
