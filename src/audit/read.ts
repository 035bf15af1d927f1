import type { FileHost } from "../runtime/index.ts";
import { AUDIT_VERSION, type AuditRecordV1 } from "./record.ts";

export interface RunQuery {
  readonly hook?: string;
  readonly status?: string;
  readonly event?: string;
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
      const record = parseRecord(line);
      if (!record) {
        skippedLines++;
        continue;
      }
      if (matchesQuery(record, query)) records.push(record);
    }
  }
  return { records, skippedLines };
}

export function parseRecord(line: string): AuditRecordV1 | undefined {
  try {
    const value = JSON.parse(line) as Partial<AuditRecordV1>;
    return value && value.v === AUDIT_VERSION && typeof value.hook_id === "string" ? (value as AuditRecordV1) : undefined;
  } catch {
    return undefined;
  }
}

export function matchesQuery(record: AuditRecordV1, query: Omit<RunQuery, "limit">): boolean {
  return (!query.hook || record.hook_id === query.hook) && (!query.status || record.status === query.status) && (!query.event || record.event_type === query.event);
}
