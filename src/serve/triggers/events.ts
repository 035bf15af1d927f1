import type { NativeEvent } from "../../core/events/types.ts";
import type { WatchBatch } from "./watcher.ts";

/** The session id of events Hookbox makes itself (a schedule, a watch, a manual fire of one). */
export const TRIGGER_SESSION = "hookbox-trigger";
/** The event type of a scheduled run (the seed engine's periodic trigger). */
export const PERIODIC_EVENT = "periodic";
/** The changes one folder.changed event lists at most (count says how many there were). */
export const MAX_LISTED_CHANGES = 1000;

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * A scheduled run's event: the timing context of the seed engine (current_time, last_run_time,
 * seconds_since_last_run; the last two absent on a first run), in the project's workspace.
 */
export function periodicEvent(now: number, lastRun: number | undefined, workspace: string | undefined): NativeEvent {
  return {
    event_type: PERIODIC_EVENT,
    session_id: TRIGGER_SESSION,
    timestamp: iso(now),
    ...(workspace !== undefined ? { cwd: workspace } : {}),
    current_time: iso(now),
    current_time_epoch: now / 1000,
    ...(lastRun !== undefined
      ? { last_run_time: iso(lastRun), last_run_time_epoch: lastRun / 1000, seconds_since_last_run: (now - lastRun) / 1000 }
      : {}),
  };
}

function relative(workspace: string, path: string): string {
  return path === workspace ? "." : path.startsWith(`${workspace}/`) ? path.slice(workspace.length + 1) : path;
}

/**
 * A watch's batch as the seed engine's events: file.changed (path, relative_path, operation,
 * old_mtime, new_mtime, size, in seconds and bytes) for a watched file, folder.changed (path,
 * changes [{path, operation}] relative to the workspace, count) for a watched folder.
 */
export function watchEvent(batch: WatchBatch, workspace: string, watchId: string, project: string | undefined, now: number): NativeEvent {
  const base = {
    session_id: TRIGGER_SESSION,
    timestamp: iso(now),
    cwd: workspace,
    watch_id: watchId,
    ...(project !== undefined ? { project_id: project } : {}),
  };
  if (batch.target.kind === "file") {
    const change = batch.changes[0] as WatchBatch["changes"][number];
    return {
      ...base,
      event_type: "file.changed",
      path: change.path,
      relative_path: relative(workspace, change.path),
      operation: change.operation,
      old_mtime: change.before ? change.before.mtimeMs / 1000 : null,
      new_mtime: change.after ? change.after.mtimeMs / 1000 : null,
      size: change.after?.size ?? 0,
    };
  }
  const listed = batch.changes
    .slice(0, MAX_LISTED_CHANGES)
    .map((change) => ({ path: relative(workspace, change.path), operation: change.operation }));
  return {
    ...base,
    event_type: "folder.changed",
    path: batch.target.path,
    relative_path: batch.target.relative,
    changes: listed,
    count: batch.changes.length,
    ...(batch.changes.length > listed.length ? { truncated: true } : {}),
  };
}
