// src/serve/triggers owns what runs hooks besides agents' events (schedules, watches); it must not import src/serve/api, src/cli or runtime APIs.
// Schedules (every, cron) and watches of files and folders, and the runner the daemon starts and stops. It decides when a
// hook runs; the evaluator (src/decide) runs it. It touches the file system only through src/platform's hosts.
export { TriggerRunner, RUNNING_RECORD_AFTER_MS, type TriggerRunnerOptions } from "./runner.ts";
export { systemClock, type Clock } from "./clock.ts";
export { mergeChanges, ChangeSet, type Operation } from "./changes.ts";
