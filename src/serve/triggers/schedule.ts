import { Cron } from "croner";
import type { Schedule } from "../../hooks/config/resolve.ts";

/**
 * When a scheduled hook is next due. `every`: its interval after its last run — at once when it
 * never ran (the seed engine's rule; a restart restores the last run, so a restart alone does not
 * make it due). `cron`: the pattern's next time after the last run, or after `since` (when the
 * runner started watching it) when it never ran: a schedule is not run for times it was not
 * watched.
 */
export function nextDue(schedule: Schedule, lastRun: number | undefined, since: number): number {
  if (schedule.kind === "every") return lastRun === undefined ? since : lastRun + schedule.seconds * 1000;
  const next = new Cron(schedule.pattern, { paused: true }).nextRun(new Date(lastRun ?? since));
  // A pattern with no time left (a date in the past): never.
  return next ? next.getTime() : Number.POSITIVE_INFINITY;
}

/** The least time between two runs a schedule implies (what a claim of its cooldown asks for). */
export function scheduleSpacingMs(schedule: Schedule): number {
  return schedule.kind === "every" ? schedule.seconds * 1000 : 0;
}
