// The system tier's audit anchor: each chain head also goes to the system log, which the user can
// append to but not erase, and `hookbox audit verify --against-system-log` reads them back.
import { SYSLOG_FACILITIES, type SystemLogConfig } from "../../hooks/config/schema.ts";
import type { SocketHost } from "../../platform/index.ts";
import { parseSyslogAddress } from "./export/syslog.ts";

/** Where heads go when the system policy says nothing (its schema's defaults). */
export const DEFAULT_SYSTEM_LOG: SystemLogConfig = { address: "unix:/dev/log", facility: "authpriv" };

/** The tag (RFC 5424 APP-NAME, syslog's program name) every head is sent under. */
export const HEAD_TAG = "hookbox-audit";

/** One head as sent: which log (by its path and owner), the link to its last line, when. */
export interface AuditHead {
  readonly v: 1;
  readonly uid: number | null;
  /** The live audit file the head is a line of. */
  readonly log: string;
  /** sha256: of the last line written (what `audit verify` prints as head). */
  readonly head: string;
  /** When the record that line holds was written (the writer's clock). */
  readonly at: string;
}

/** The marker a head's message starts with: how a reader finds heads among everything else in the log. */
const MARKER = '{"hookbox_audit_head":';

/** `<PRI>1 TIMESTAMP HOST hookbox-audit PID head - {"hookbox_audit_head":{…}}`: one line, JSON after a fixed marker. */
export function formatHead(head: AuditHead, config: SystemLogConfig, header: { readonly hostname: string; readonly pid: number }): string {
  const pri = SYSLOG_FACILITIES[config.facility] * 8 + 6;
  const host = header.hostname.replace(/[^!-~]/g, "").slice(0, 255) || "-";
  return `<${pri}>1 ${head.at} ${host} ${HEAD_TAG} ${header.pid} head - ${MARKER}${JSON.stringify(head)}}`;
}

/** The head a line of a system log carries (a file rsyslog wrote in any format, or journald's MESSAGE), or undefined. */
export function headOfLine(line: string): AuditHead | undefined {
  const at = line.indexOf(MARKER);
  if (at < 0) return undefined;
  const end = line.lastIndexOf("}");
  try {
    const value = (JSON.parse(line.slice(at, end + 1)) as { hookbox_audit_head?: unknown }).hookbox_audit_head as Partial<AuditHead> | undefined;
    if (!value || value.v !== 1 || typeof value.log !== "string" || typeof value.head !== "string" || typeof value.at !== "string") return undefined;
    if (!/^sha256:[0-9a-f]{64}$/.test(value.head)) return undefined;
    return { v: 1, uid: typeof value.uid === "number" ? value.uid : null, log: value.log, head: value.head, at: value.at };
  } catch {
    return undefined;
  }
}

/**
 * Send one head, bounded in time; never throws (the answer has left already: a system log that is
 * not there costs the anchor, which `doctor` and `audit verify --against-system-log` then say).
 */
export async function sendHead(
  sockets: SocketHost,
  config: SystemLogConfig,
  head: AuditHead,
  header: { readonly hostname: string; readonly pid: number },
  timeoutMs = 1000,
): Promise<string | undefined> {
  try {
    const target = parseSyslogAddress(config.address);
    const socket = await sockets.open(target, timeoutMs);
    try {
      const message = new TextEncoder().encode(formatHead(head, config, header));
      const stream = target.kind === "tcp" || target.kind === "unix-stream";
      await socket.send(stream ? concat(new TextEncoder().encode(`${message.byteLength} `), message) : message);
    } finally {
      socket.close();
    }
    return undefined;
  } catch (error) {
    return `the system log (${config.address}) did not take the audit head: ${(error as Error).message}`;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

/** What the system log's heads say of the kept audit files (`audit verify --against-system-log`). */
export interface SystemLogCheck {
  readonly ok: boolean;
  /** Heads of this log the system log holds. */
  readonly heads: number;
  /** Heads found as lines of the kept files. */
  readonly found: number;
  /** Heads the kept files should hold and do not: the log was cut or rewritten after they were sent. */
  readonly missing: readonly { readonly head: string; readonly at: string }[];
  /** Heads older than the oldest record kept, in a log that continues a rotated-out file: rotated out, not checkable. */
  readonly rotatedOut: number;
  /** Set when the kept log begins anew (from the first link ever) after the system log had seen records of it: deleted. */
  readonly restarted?: string;
  /** The newest head of all, and where it is. */
  readonly newest?: { readonly head: string; readonly at: string; readonly found: boolean };
}

/**
 * A head sent within this long before the oldest kept record started may belong to a record of a
 * rotated-out file written concurrently (a daemon's batch): judged as rotated out, not missing.
 */
const CLOCK_GRACE_MS = 5000;

/**
 * Compare the heads the system log holds for a log with the lines its kept files hold. Every head
 * sent after the oldest kept record must be a line of the kept files: a truncation (the newest
 * lines cut), a rewrite (hashes recomputed from an edited line on) or a deletion all leave heads
 * with no line. Heads from before the oldest kept record are rotated out — unless the kept log
 * starts from the first link ever (nothing was rotated: it was deleted and begun again).
 */
export function checkHeads(
  lines: readonly { readonly hash: string; readonly record?: { readonly at?: string } | undefined }[],
  origin: "genesis" | "continued" | "unchained" | "empty",
  heads: readonly AuditHead[],
): SystemLogCheck {
  const kept = new Set(lines.map((line) => line.hash));
  const oldest = lines.find((line) => line.record?.at !== undefined)?.record?.at;
  const since = oldest === undefined ? undefined : Date.parse(oldest) - CLOCK_GRACE_MS;
  const sorted = [...heads].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const missing: { head: string; at: string }[] = [];
  const before: AuditHead[] = [];
  let found = 0;
  for (const head of sorted) {
    if (kept.has(head.head)) found++;
    else if (since !== undefined && Date.parse(head.at) < since) before.push(head);
    else missing.push({ head: head.head, at: head.at });
  }
  const restarted =
    before.length > 0 && (origin === "genesis" || origin === "empty")
      ? `the kept log starts from the first link ever, but the system log holds ${before.length} head(s) of it from before (the latest ${before.at(-1)?.at}): it was deleted and begun again`
      : undefined;
  const newest = sorted.at(-1);
  return {
    ok: missing.length === 0 && restarted === undefined,
    heads: sorted.length,
    found,
    missing,
    rotatedOut: restarted ? 0 : before.length,
    ...(restarted ? { restarted } : {}),
    ...(newest ? { newest: { head: newest.head, at: newest.at, found: kept.has(newest.head) } } : {}),
  };
}
