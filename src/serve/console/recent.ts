import { parseEntry } from "../../decide/audit/read.ts";
import { DOCTOR_SESSION_ID, type AuditDecisionV1, type AuditEntry, type AuditRecordV1 } from "../../decide/audit/record.ts";
import type { FileHost } from "../../platform/index.ts";

/** One event: its decision record and the records of its hook runs (records written before decisions were audited have none). */
export interface EventGroup {
  readonly eventId: string;
  readonly decision: AuditDecisionV1 | undefined;
  readonly runs: readonly AuditRecordV1[];
  /** When it was answered (the decision's completed_at, else its last run's). */
  readonly at: string;
}

/**
 * The runs table's filters, all optional, each an exact match; and two kinds of rows hidden
 * unless asked for ("show"): events allowed without any hook running (most of a busy log), and
 * hookbox doctor's test calls.
 */
export interface RunFilter {
  readonly event?: string;
  readonly hook?: string;
  readonly decision?: string;
  readonly session?: string;
  readonly project?: string;
  readonly no_hook?: string;
  readonly doctor?: string;
}

export const FILTER_KEYS = ["event", "hook", "decision", "session", "project", "no_hook", "doctor"] as const;

/**
 * An event no hook ran for, allowed, with nothing else to tell (no held approval, no queued
 * context delivered, nothing Hookbox could not evaluate): hidden by default. An event denied or
 * asked without a hook running (an unusable operator file, a fail-closed rule) is always shown.
 */
export function isQuiet(group: EventGroup): boolean {
  const d = group.decision;
  return (
    group.runs.length === 0 &&
    d !== undefined &&
    d.decision === "allow" &&
    d.incomplete === undefined &&
    d.approval === undefined &&
    (d.delivered?.length ?? 0) === 0
  );
}

/**
 * A test call of hookbox doctor (its session id, DOCTOR_SESSION_ID), allowed: hidden by default
 * and marked when shown. One that was denied or asked is always shown: that is news.
 */
export function isDoctorCall(group: EventGroup): boolean {
  const d = group.decision;
  return (d?.session_id ?? group.runs[0]?.session_id) === DOCTOR_SESSION_ID && (d === undefined || d.decision === "allow");
}

/** How much of the log's end the console reads per page: thousands of events, a few milliseconds. */
export const RECENT_BYTES = 4 * 1024 * 1024;

/**
 * The records at the end of the audit log (the live file, and the first rotated one when the
 * live file is shorter than `maxBytes`), oldest first. Every writer's records are there, the
 * daemon's and those of `emit` in its own process.
 */
export async function readRecentEntries(fs: FileHost, path: string, maxBytes = RECENT_BYTES): Promise<AuditEntry[]> {
  const live = await tailLines(fs, path, maxBytes);
  const older = live.bytes < maxBytes ? await tailLines(fs, `${path}.1`, maxBytes - live.bytes) : { lines: [], bytes: 0 };
  const entries: AuditEntry[] = [];
  for (const line of [...older.lines, ...live.lines]) {
    const entry = line ? parseEntry(line) : undefined;
    if (entry) entries.push(entry);
  }
  return entries;
}

async function tailLines(fs: FileHost, path: string, maxBytes: number): Promise<{ lines: string[]; bytes: number }> {
  const size = (await fs.readRange(path, 0, 0))?.size;
  if (size === undefined || maxBytes <= 0) return { lines: [], bytes: 0 };
  const start = Math.max(0, size - maxBytes);
  const range = await fs.readRange(path, start, maxBytes);
  if (!range) return { lines: [], bytes: 0 };
  const lines = new TextDecoder().decode(range.bytes).split("\n");
  // The first line of a cut tail is a fragment; the last is "" or a record still being written.
  if (start > 0) lines.shift();
  lines.pop();
  return { lines, bytes: range.bytes.byteLength };
}

/** Records grouped by event, newest event first. */
export function groupByEvent(entries: readonly AuditEntry[]): EventGroup[] {
  const groups = new Map<string, { decision?: AuditDecisionV1; runs: AuditRecordV1[] }>();
  for (const entry of entries) {
    let group = groups.get(entry.event_id);
    if (!group) {
      group = { runs: [] };
      groups.set(entry.event_id, group);
    }
    if (entry.kind === "decision") group.decision = entry;
    else group.runs.push(entry);
  }
  return [...groups.entries()]
    .map(([eventId, group]) => ({
      eventId,
      decision: group.decision,
      runs: group.runs,
      at: group.decision?.completed_at ?? group.runs.at(-1)?.completed_at ?? "",
    }))
    .reverse();
}

export function matchesFilter(group: EventGroup, filter: RunFilter): boolean {
  const d = group.decision;
  if (filter.no_hook !== "show" && isQuiet(group)) return false;
  if (filter.doctor !== "show" && filter.session !== DOCTOR_SESSION_ID && isDoctorCall(group)) return false;
  const first = group.runs[0];
  if (filter.event && (d?.event_type ?? first?.event_type) !== filter.event) return false;
  if (filter.hook && !group.runs.some((r) => r.hook_id === filter.hook) && d?.decided_by !== filter.hook) return false;
  if (filter.decision && d?.decision !== filter.decision) return false;
  if (filter.session && (d?.session_id ?? first?.session_id) !== filter.session) return false;
  if (filter.project && d?.project !== filter.project) return false;
  return true;
}

/** How many events the filter's defaults hide (the others match): shown above the table, with how to see them. */
export function hiddenByDefault(groups: readonly EventGroup[], filter: RunFilter): { readonly quiet: number; readonly doctor: number } {
  const wider: RunFilter = { ...filter, no_hook: "show", doctor: "show" };
  let quiet = 0;
  let doctor = 0;
  for (const group of groups) {
    if (!matchesFilter(group, wider) || matchesFilter(group, filter)) continue;
    if (filter.doctor !== "show" && isDoctorCall(group)) doctor++;
    else quiet++;
  }
  return { quiet, doctor };
}

/** The filters of a query string: known keys with non-empty values only. */
export function filterFrom(query: (key: string) => string | undefined): RunFilter {
  const filter: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = query(key)?.trim();
    if (value) filter[key] = value.slice(0, 4096);
  }
  return filter;
}
