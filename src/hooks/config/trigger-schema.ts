import { Cron } from "croner";
import { z } from "zod";
import { checkEventName } from "../../core/events/names.ts";

/**
 * The triggers a hook may have besides agents' events (the seed engine's periodic and file-watch
 * triggers): a schedule (`every`, `interval_seconds` or `cron`) and a `watch` of files and
 * folders. The seed's own `trigger:` object is accepted too and means the same.
 */

/** The shortest interval a schedule may have: a schedule is checked every few seconds. */
export const MIN_INTERVAL_SECONDS = 10;
export const MAX_INTERVAL_SECONDS = 7 * 24 * 3600;

const DURATION = /^(\d{1,7})\s*(s|m|h|d)$/;
const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** "90s", "10m", "2h", "1d", or a number of seconds. */
export function parseDuration(value: string | number): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  const match = DURATION.exec(value.trim());
  return match ? Number(match[1]) * (UNIT_SECONDS[match[2] as string] as number) : undefined;
}

const intervalSeconds = z
  .number({ error: "expected a whole number of seconds" })
  .int("expected a whole number of seconds")
  .min(MIN_INTERVAL_SECONDS, `must be at least ${MIN_INTERVAL_SECONDS} seconds`)
  .max(MAX_INTERVAL_SECONDS, `must be at most ${MAX_INTERVAL_SECONDS} seconds (7 days)`);

export const everySchema = z.union([z.string().max(32), z.number()]).superRefine((value, ctx) => {
  const seconds = parseDuration(value);
  if (seconds === undefined || !Number.isInteger(seconds))
    ctx.addIssue({ code: "custom", message: 'expected a duration such as "30s", "10m", "2h" or "1d", or a whole number of seconds' });
  else if (seconds < MIN_INTERVAL_SECONDS || seconds > MAX_INTERVAL_SECONDS)
    ctx.addIssue({ code: "custom", message: `must be between ${MIN_INTERVAL_SECONDS} seconds and 7 days, got ${seconds} seconds` });
});

/** Five fields (minute hour day-of-month month day-of-week) or six (seconds first), in the daemon's local time; checked by croner. */
export const cronSchema = z
  .string()
  .max(256)
  .superRefine((pattern, ctx) => {
    try {
      new Cron(pattern, { paused: true });
    } catch (error) {
      ctx.addIssue({ code: "custom", message: `not a cron pattern: ${(error as Error).message}` });
    }
  });

export const WATCH_OPERATIONS = ["created", "modified", "deleted"] as const;

const extension = z
  .string()
  .min(1)
  .max(32)
  .regex(/^\.?[A-Za-z0-9_+-]+(\.[A-Za-z0-9_+-]+)*$/, 'expected a file extension such as ".md" or "md"');

/** The keys the native `watch:` and the seed's `trigger.watch` share. */
const watchFields = {
  /** Files or folders, relative to base_dir, or absolute (inside the project; outside any project, as written). */
  paths: z.array(z.string().min(1).max(1024)).min(1).max(64),
  /** Where relative paths start; default the project's root. Relative to the project, or absolute inside it. */
  base_dir: z.string().min(1).max(4096).optional(),
  /** Look into subfolders of a watched folder. */
  recursive: z.boolean().default(false),
  /** Only files with one of these extensions (in folders). Default: all. */
  extensions: z.array(extension).max(64).optional(),
};

export const watchSchema = z
  .object({
    ...watchFields,
    /** How long changes are gathered before the hook runs once for all of them; default the operator's triggers.debounce_ms (5 s). */
    debounce_ms: z
      .number()
      .int()
      .min(0)
      .max(10 * 60_000)
      .optional(),
    /** Which changes run the hook; default all three. */
    on: z
      .array(z.enum(WATCH_OPERATIONS))
      .min(1)
      .max(3)
      .default([...WATCH_OPERATIONS]),
  })
  .strict();

export type WatchConfig = z.output<typeof watchSchema>;

const eventName = z.string().superRefine((name, ctx) => {
  const check = checkEventName(name);
  if (!check.ok) ctx.addIssue({ code: "custom", message: check.message });
});

/** The seed engine's trigger object: `{type: periodic, interval_seconds}` or `{type: event, event_type, watch?}`. */
export const seedTriggerSchema = z
  .object({
    type: z.enum(["periodic", "event"]),
    /** periodic: default 3600, as in the seed. */
    interval_seconds: intervalSeconds.optional(),
    event_type: eventName.optional(),
    watch: z.object(watchFields).strict().optional(),
  })
  .strict()
  .superRefine((trigger, ctx) => {
    if (trigger.type === "periodic") {
      if (trigger.event_type !== undefined || trigger.watch !== undefined)
        ctx.addIssue({ code: "custom", message: "a periodic trigger takes interval_seconds only" });
      return;
    }
    if (trigger.interval_seconds !== undefined)
      ctx.addIssue({ code: "custom", path: ["interval_seconds"], message: "an event trigger has no interval (use type: periodic)" });
    if (trigger.event_type === undefined)
      ctx.addIssue({ code: "custom", path: ["event_type"], message: "missing: which event runs the hook (e.g. event_type: file.changed)" });
    const watches = trigger.event_type === "file.changed" || trigger.event_type === "folder.changed";
    if (trigger.watch && !watches)
      ctx.addIssue({ code: "custom", path: ["watch"], message: "watch goes with event_type file.changed or folder.changed" });
    if (watches && !trigger.watch)
      ctx.addIssue({ code: "custom", path: ["watch"], message: `missing: what to watch for ${trigger.event_type} (watch: { paths: [...] })` });
  });

export type SeedTrigger = z.output<typeof seedTriggerSchema>;

/** The operator's settings for triggers (hookbox.yaml `triggers:`). */
export const triggerSettingsSchema = z
  .object({
    /** Run hooks' schedules and watches at all (in the daemon). */
    enabled: z.boolean().default(true),
    /** Triggered hooks running at once; when reached, due hooks wait for the next check. Agents' events have their own cap (dispatch.concurrency). */
    max_concurrent: z.number().int().min(1).max(64).default(2),
    /** How often schedules are checked, in ms (the seed's tick: 5 s). */
    check_interval_ms: z.number().int().min(100).max(60_000).default(5000),
    /** How often watched paths are polled for changes (mtime), in ms; file-system events make it sooner where they are reliable. */
    poll_interval_ms: z
      .number()
      .int()
      .min(100)
      .max(10 * 60_000)
      .default(10_000),
    /** How long a watch gathers changes before its hook runs, unless the hook says: 5 s as in the seed. */
    debounce_ms: z
      .number()
      .int()
      .min(0)
      .max(10 * 60_000)
      .default(5000),
    /** Files and folders tracked by all watches of one daemon together; beyond it a watch stops growing and says so. */
    max_watched_paths: z.number().int().min(1).max(1_000_000).default(20_000),
  })
  .strict();

export type TriggerSettings = z.output<typeof triggerSettingsSchema>;
