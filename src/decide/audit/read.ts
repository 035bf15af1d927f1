import type { FileHost } from "../../platform/index.ts";
import { AUDIT_VERSION, type AuditDecisionV1, type AuditEntry, type AuditRecordV1 } from "./record.ts";

export interface RunQuery {
  readonly hook?: string;
  readonly status?: string;
  readonly event?: string;
  /** Only monitored hooks' runs (mode: monitor) that would have denied or asked. */
  readonly would_block?: boolean;
  readonly limit: number;
}

export interface RunsRead {
  /** Newest first. */
  readonly records: readonly AuditRecordV1[];
  /** Lines that were not a v1 record (a reader never stops on one). */
  readonly skippedLines: number;
}

/** Newest-first matching records from the live log and its rotated files. */
export async function readRuns(fs: FileHost, path: string, query: RunQuery, keepFiles = 10): Promise<RunsRead> {
  const records: AuditRecordV1[] = [];
  let skippedLines = 0;
  for (const file of [path, ...Array.from({ length: keepFiles }, (_, i) => `${path}.${i + 1}`)]) {
    if (records.length >= query.limit) break;
    if ((await fs.size(file)) === undefined) continue;
    const lines = (await fs.readText(file)).split("\n");
    for (let i = lines.length - 1; i >= 0 && records.length < query.limit; i--) {
      const line = lines[i] as string;
      if (!line) continue;
      const entry = parseEntry(line);
      if (!entry) {
        if (!isChainRecord(line)) skippedLines++;
        continue;
      }
      if (entry.kind !== "decision" && matchesQuery(entry, query)) records.push(entry);
    }
  }
  return { records, skippedLines };
}

/** A run record or a decision record (DESIGN §7), or undefined for a line that is neither. */
export function parseEntry(line: string): AuditEntry | undefined {
  try {
    const value = JSON.parse(line) as Partial<AuditRecordV1> | Partial<AuditDecisionV1>;
    if (!value || value.v !== AUDIT_VERSION) return undefined;
    if (value.kind === "decision") return typeof value.event_id === "string" ? (value as AuditDecisionV1) : undefined;
    return typeof (value as Partial<AuditRecordV1>).hook_id === "string" ? (value as AuditRecordV1) : undefined;
  } catch {
    return undefined;
  }
}

/** A record the writer added where it found the chain broken (AuditChainV1): not a run, not junk. */
function isChainRecord(line: string): boolean {
  try {
    const value = JSON.parse(line) as { v?: unknown; kind?: unknown } | null;
    return value?.v === AUDIT_VERSION && value.kind === "chain";
  } catch {
    return false;
  }
}

export function matchesQuery(record: AuditRecordV1, query: Omit<RunQuery, "limit">): boolean {
  return (
    (!query.hook || record.hook_id === query.hook) &&
    (!query.status || record.status === query.status) &&
    (!query.event || record.event_type === query.event) &&
    (!query.would_block || wouldBlock(record))
  );
}

/** A monitored hook's run that would have denied or asked (shadow mode: src/decide/chain/shadow.ts). */
export function wouldBlock(record: AuditRecordV1): boolean {
  return record.mode === "monitor" && (record.would?.decision === "deny" || record.would?.decision === "ask");
}
