import { runRecords, type RunRecords } from "../../decide/audit/build.ts";
import { eventDigest } from "../../core/text/excerpt.ts";
import type { AuditRecordV1 } from "../../decide/audit/record.ts";
import { hasTriggers, type HookDefinition, type Schedule } from "../../hooks/config/resolve.ts";
import type { NotifySettings } from "../../capabilities/notify/schema.ts";
import type { TriggerSettings } from "../../hooks/config/trigger-schema.ts";
import { cooldownKey } from "../../decide/chain/cooldowns.ts";
import { errorMessage } from "../../core/errors.ts";
import type { Evaluator } from "../../decide/evaluator.ts";
import type { NativeEvent } from "../../core/events/types.ts";
import { sendNotification } from "../../capabilities/notify/send.ts";
import type { CapabilityIO } from "../../platform/capability-io.ts";
import type { FileHost, NotifyIO } from "../../platform/index.ts";
import type { Clock, TimerHandle } from "./clock.ts";
import { periodicEvent, watchEvent } from "./events.ts";
import { nextDue, scheduleSpacingMs } from "./schedule.ts";
import { watchTargets } from "./targets.ts";
import { PathBudget, Watcher, type WatchBatch } from "./watcher.ts";

export interface TriggerRunnerOptions {
  readonly evaluator: Pick<Evaluator, "hookSets" | "cooldowns" | "runTriggered" | "writeRecords" | "pending">;
  readonly clock: Clock;
  /** lstat, listings and realpath that never follow a symbolic link out of what was checked. */
  readonly io: Pick<CapabilityIO, "lstat" | "listDirectory" | "realPath">;
  /** The runtime's file-system events, to look sooner than the poll. */
  readonly hint?: FileHost["watch"];
  /** Where run notifications leave (the operator's notify.sinks); absent: none are sent. */
  readonly notify?: NotifyIO;
  readonly log: (line: string) => void;
  readonly newId?: () => string;
}

/** A triggered run still going after this long is recorded `running` first. */
export const RUNNING_RECORD_AFTER_MS = 2000;

/** One triggered hook of one project, as the runner keeps it between checks. */
interface Entry {
  readonly key: string;
  readonly project: string | undefined;
  readonly hookId: string;
  /** The triggers and cooldown it was set up with: a change sets it up again. */
  readonly shape: string;
  readonly schedule: Schedule | undefined;
  readonly cooldownMs: number;
  /** When the runner started looking after it: a cron schedule does not run for times before. */
  readonly since: number;
  watcher?: Watcher;
  /** The kind of the last skip recorded for its schedule: a due run refused again for the same cause is not recorded again. */
  lastSkip?: SkipCause;
}

type TriggerKind = "periodic" | "watch" | "manual";

/** What every record of one triggered run shares. */
interface RunIdentity {
  readonly hookId: string;
  readonly runId: string;
  readonly eventId: string;
  readonly eventDigest: string;
  readonly event: NativeEvent;
  readonly trigger: TriggerKind;
  readonly reason: string;
}
type SkipCause = "in-flight" | "capacity" | "cooldown";

/**
 * Runs hooks' schedules and watches for the projects the daemon has loaded (the ones agents
 * worked in since it started, the user's own hooks included), with the seed engine's rules: a
 * schedule is due its interval after its last run (kept in the cooldown store, so shared with
 * `emit` and kept across restarts); a hook already in flight is skipped, not queued; at most
 * `triggers.max_concurrent` triggered hooks run at once, and a check that finds the cap reached
 * stops examining; each skip is recorded with its reason. What a run injects is queued for the
 * project's next agent event (src/decide/pending.ts); its moments go to the notify sinks.
 */
export class TriggerRunner {
  private readonly entries = new Map<string, Entry>();
  private readonly running = new Map<string, Promise<void>>();
  /** Watch batches being examined (tests wait for them with idle()). */
  private readonly examining = new Set<Promise<void>>();
  private budget: PathBudget | undefined;
  private timer: TimerHandle | undefined;
  private checking: Promise<void> | undefined;
  private stopped = false;
  private settings: TriggerSettings | undefined;
  private notifySettings: NotifySettings | undefined;
  private readonly newId: () => string;

  constructor(private readonly options: TriggerRunnerOptions) {
    this.newId = options.newId ?? (() => crypto.randomUUID());
  }

  /** Check now, then every triggers.check_interval_ms. */
  start(): void {
    this.stopped = false;
    void this.check().finally(() => this.scheduleCheck());
  }

  /** Stop checking and watching; runs in flight finish (awaited). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.options.clock.clearTimeout(this.timer);
    for (const entry of this.entries.values()) entry.watcher?.stop();
    this.entries.clear();
    await this.checking;
    await this.idle();
  }

  /** Runs going now (tests, health). */
  inFlight(): number {
    return this.running.size;
  }

  /** Every run started so far has finished (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0 || this.examining.size > 0) await Promise.allSettled([...this.examining, ...this.running.values()]);
  }

  /** The watcher of a project's hook, once set up (tests drive its scans). */
  watcherOf(project: string | undefined, hookId: string): Watcher | undefined {
    return this.entries.get(cooldownKey(project, hookId))?.watcher;
  }

  /** One check: set up what the loaded hook sets ask for, then start the schedules that are due. */
  check(): Promise<void> {
    this.checking ??= this.checkOnce().finally(() => (this.checking = undefined));
    return this.checking;
  }

  /**
   * A manual fire of a triggered hook (hookbox fire, POST /v1/hooks/:id/fire): runs now whatever
   * its cooldown (the run is recorded as its last), unless it is in flight; its injections are
   * queued as a scheduled run's are. Undefined: the project has no such hook loaded.
   */
  async fire(
    project: string | undefined,
    hookId: string,
    event?: NativeEvent,
  ): Promise<{ status: string; run_id: string; records: readonly AuditRecordV1[] } | undefined> {
    const set = await this.options.evaluator.hookSets.forProject(project);
    const hook = set.snapshot.get(hookId);
    if (!hook) return undefined;
    this.notifySettings ??= set.snapshot.operator.notify;
    const key = cooldownKey(project, hookId);
    const now = this.options.clock.now();
    const fired = event ?? periodicEvent(now, await this.options.evaluator.cooldowns.lastRun(key), project);
    const identity = await this.identity(hookId, fired, "manual", "manual fire");
    if (this.running.has(key)) {
      const record = this.records(identity).skipped(
        hookId,
        "in flight: its previous run has not finished (a triggered hook is skipped, not queued)",
        now,
      );
      await this.options.evaluator.writeRecords([record]);
      return { status: "skipped", run_id: identity.runId, records: [record] };
    }
    let records: readonly AuditRecordV1[] = [];
    await this.launch({ key, project, hookId }, identity, (done) => (records = done));
    return { status: records.at(-1)?.status ?? "failed", run_id: identity.runId, records };
  }

  private scheduleCheck(): void {
    if (this.stopped) return;
    const every = this.settings?.check_interval_ms ?? 5000;
    this.timer = this.options.clock.setTimeout(() => void this.check().finally(() => this.scheduleCheck()), every);
  }

  private async checkOnce(): Promise<void> {
    try {
      const due = await this.sync();
      await this.startDue(due);
    } catch (error) {
      this.options.log(`triggers: a check failed (${errorMessage(error)}); the next check tries again`);
    }
  }

  /** Entries for every triggered hook of every loaded project; the ones with a schedule, in run order. */
  private async sync(): Promise<Entry[]> {
    const hookSets = this.options.evaluator.hookSets;
    // A user's hook is in every project's set: it is triggered for each project, not also for
    // events naming none — unless the daemon serves one set for all (--hooks DIR).
    const projects = hookSets.projects().filter((project) => project !== undefined || !hookSets.servesProjects());
    const sets = await Promise.all(projects.map((project) => hookSets.ifLoaded(project)));
    const seen = new Set<string>();
    const scheduled: Entry[] = [];
    for (const set of sets) {
      if (!set) continue;
      const operator = set.snapshot.operator;
      this.settings = operator.triggers;
      this.notifySettings = operator.notify;
      if (!operator.triggers.enabled) continue;
      for (const hook of set.snapshot.hooks) {
        if (!hasTriggers(hook.definition)) continue;
        const entry = await this.entryFor(set.project, hook.definition);
        seen.add(entry.key);
        if (entry.schedule) scheduled.push(entry);
      }
    }
    for (const [key, entry] of this.entries) {
      if (seen.has(key)) continue;
      entry.watcher?.stop();
      this.entries.delete(key);
    }
    return scheduled;
  }

  private async entryFor(project: string | undefined, definition: HookDefinition): Promise<Entry> {
    const key = cooldownKey(project, definition.id);
    const shape = JSON.stringify([definition.triggers, definition.cooldownMs]);
    const known = this.entries.get(key);
    if (known && known.shape === shape) return known;
    known?.watcher?.stop();
    const entry: Entry = {
      key,
      project,
      hookId: definition.id,
      shape,
      schedule: definition.triggers.schedule,
      cooldownMs: definition.cooldownMs,
      since: this.options.clock.now(),
    };
    this.entries.set(key, entry);
    if (definition.triggers.watch) await this.startWatch(entry, definition);
    return entry;
  }

  private async startWatch(entry: Entry, definition: HookDefinition): Promise<void> {
    const watch = definition.triggers.watch;
    const settings = this.settings;
    if (!watch || !settings) return;
    const { targets, workspace, problems } = await watchTargets(watch, entry.project, this.options.io);
    for (const problem of problems) this.options.log(`triggers: hook ${definition.id}: ${problem}`);
    if (targets.length === 0) return;
    this.budget ??= new PathBudget(settings.max_watched_paths);
    const watchId = `${definition.id}:${targets.map((t) => t.relative).join(",")}`;
    const watcher = new Watcher({
      targets,
      recursive: watch.recursive,
      extensions: watch.extensions,
      on: watch.on,
      debounceMs: watch.debounceMs ?? settings.debounce_ms,
      pollMs: settings.poll_interval_ms,
      io: this.options.io,
      ...(this.options.hint ? { hint: this.options.hint } : {}),
      clock: this.options.clock,
      budget: this.budget,
      onBatch: (batches) => {
        const examined = this.onWatch(entry, batches, workspace, watchId).catch((error: unknown) =>
          this.options.log(`triggers: hook ${definition.id}: a watch batch failed (${errorMessage(error)})`),
        );
        this.examining.add(examined);
        void examined.finally(() => this.examining.delete(examined));
      },
      log: (line) => this.options.log(`triggers: hook ${definition.id}: ${line}`),
    });
    entry.watcher = watcher;
    await watcher.start();
  }

  /** Start the due schedules in order; stop examining once the cap is reached. */
  private async startDue(scheduled: readonly Entry[]): Promise<void> {
    const max = this.settings?.max_concurrent ?? 2;
    for (const entry of scheduled) {
      if (this.stopped) return;
      const schedule = entry.schedule as Schedule;
      const now = this.options.clock.now();
      const lastRun = await this.options.evaluator.cooldowns.lastRun(entry.key);
      if (now < nextDue(schedule, lastRun, entry.since)) continue;
      const reason = schedule.kind === "every" ? `every ${schedule.seconds} s` : `cron ${schedule.pattern}`;
      const event = periodicEvent(now, lastRun, entry.project);
      if (this.running.has(entry.key)) {
        await this.skipOnce(
          entry,
          event,
          reason,
          "in-flight",
          "in flight: its previous run has not finished (a triggered hook is skipped, not queued)",
        );
        continue;
      }
      if (this.running.size >= max) {
        await this.skipOnce(
          entry,
          event,
          reason,
          "capacity",
          `${this.running.size} triggered hooks are running (triggers.max_concurrent: ${max}); the hooks after it were not examined`,
        );
        return;
      }
      const spacing = scheduleSpacingMs(schedule);
      const claim = await this.options.evaluator.cooldowns.claim([{ key: entry.key, cooldownMs: Math.max(entry.cooldownMs, spacing) }], now);
      const refused = claim.refused.get(entry.key);
      if (refused) {
        // Another process ran it since (emit, another daemon) — not a skip — unless its own cooldown is what waits.
        if (now - refused.lastRunAt >= spacing)
          await this.skipOnce(
            entry,
            event,
            reason,
            "cooldown",
            `cooldown: ${((now - refused.lastRunAt) / 1000).toFixed(1)} s since its last run (cooldown_seconds: ${entry.cooldownMs / 1000})`,
          );
        continue;
      }
      entry.lastSkip = undefined;
      void this.launch(entry, await this.identity(entry.hookId, event, "periodic", reason));
    }
  }

  private async skipOnce(entry: Entry, event: NativeEvent, reason: string, cause: SkipCause, why: string): Promise<void> {
    if (entry.lastSkip === cause) return;
    entry.lastSkip = cause;
    const identity = await this.identity(entry.hookId, event, "periodic", reason);
    await this.options.evaluator.writeRecords([this.records(identity).skipped(entry.hookId, why, this.options.clock.now())]);
    this.notifyRun(entry.project, identity, "skipped", why);
  }

  /** A watch's batches: one run each, unless the hook is in flight, the cap is reached or its cooldown waits (each recorded). */
  private async onWatch(entry: Entry, batches: readonly WatchBatch[], workspace: string, watchId: string): Promise<void> {
    const max = this.settings?.max_concurrent ?? 2;
    for (const batch of batches) {
      if (this.stopped) return;
      const now = this.options.clock.now();
      const event = watchEvent(batch, workspace, watchId, entry.project, now);
      const count = batch.changes.length;
      const reason = `${event.event_type} ${batch.target.relative}${batch.target.kind === "folder" ? ` (${count} change${count === 1 ? "" : "s"})` : ` (${batch.changes[0]?.operation ?? "changed"})`}`;
      const identity = await this.identity(entry.hookId, event, "watch", reason);
      const skip = async (why: string): Promise<void> => {
        await this.options.evaluator.writeRecords([this.records(identity).skipped(entry.hookId, why, now)]);
        this.notifyRun(entry.project, identity, "skipped", why);
      };
      if (this.running.has(entry.key)) {
        await skip("in flight: its previous run has not finished (a triggered hook is skipped, not queued)");
        continue;
      }
      if (this.running.size >= max) {
        await skip(`${this.running.size} triggered hooks are running (triggers.max_concurrent: ${max})`);
        continue;
      }
      if (entry.cooldownMs > 0) {
        const claim = await this.options.evaluator.cooldowns.claim([{ key: entry.key, cooldownMs: entry.cooldownMs }], now);
        const refused = claim.refused.get(entry.key);
        if (refused) {
          await skip(
            `cooldown: ${((now - refused.lastRunAt) / 1000).toFixed(1)} s since its last run (cooldown_seconds: ${entry.cooldownMs / 1000})`,
          );
          continue;
        }
      }
      void this.launch(entry, identity);
    }
  }

  private async identity(hookId: string, event: NativeEvent, trigger: TriggerKind, reason: string): Promise<RunIdentity> {
    return { hookId, runId: this.newId(), eventId: this.newId(), eventDigest: await eventDigest(event), event, trigger, reason };
  }

  /** The records of a run the runner writes itself (a skip, `running`): its final ones are the pipeline's. */
  private records(run: RunIdentity): RunRecords {
    const { eventId, event, trigger, reason, runId, eventDigest } = run;
    return runRecords({ eventId, event, trigger, triggerReason: reason, runId, eventDigest }, this.newId);
  }

  /** Run it, with a `running` record when it takes long, its injections queued and its moments notified. */
  private launch(
    entry: Pick<Entry, "key" | "project" | "hookId">,
    identity: RunIdentity,
    onDone?: (records: readonly AuditRecordV1[]) => void,
  ): Promise<void> {
    const { clock } = this.options;
    const startedAt = clock.now();
    this.notifyRun(entry.project, identity, "started", identity.reason);
    let finished = false;
    const runningTimer = clock.setTimeout(() => {
      if (!finished) void this.options.evaluator.writeRecords([this.records(identity).running(identity.hookId, startedAt)]);
    }, RUNNING_RECORD_AFTER_MS);
    const run = (async () => {
      try {
        const result = await this.options.evaluator.runTriggered({
          project: entry.project,
          hookId: entry.hookId,
          event: identity.event,
          ...(identity.trigger !== "manual" ? { trigger: { kind: identity.trigger, reason: identity.reason } } : {}),
          runId: identity.runId,
          eventId: identity.eventId,
          eventDigest: identity.eventDigest,
        });
        finished = true;
        const records = result?.records ?? [];
        onDone?.(records);
        const last = records.at(-1);
        for (const injection of result?.decision.context_injections ?? []) {
          this.options.evaluator.pending?.add(entry.project, {
            hook_id: injection.hook_id,
            role: injection.role,
            content: injection.content,
            run_id: identity.runId,
            trigger: identity.trigger,
            at: startedAt,
          });
        }
        const phase = !last || last.status === "failed" ? "failed" : last.status === "skipped" ? "skipped" : "completed";
        this.notifyRun(entry.project, identity, phase, last?.reason ?? (result ? `${last?.status ?? "no run"}` : "the hook is no longer loaded"));
      } catch (error) {
        this.options.log(`triggers: hook ${entry.hookId} could not run: ${errorMessage(error)}`);
        this.notifyRun(entry.project, identity, "failed", errorMessage(error));
      } finally {
        finished = true;
        clock.clearTimeout(runningTimer);
        this.running.delete(entry.key);
      }
    })();
    this.running.set(entry.key, run);
    return run;
  }

  private notifyRun(project: string | undefined, identity: RunIdentity, phase: "started" | "completed" | "skipped" | "failed", detail: string): void {
    const settings = this.notifySettings;
    const io = this.options.notify;
    if (!io || !settings || settings.sinks.length === 0 || !settings.runs.includes(phase)) return;
    const level = phase === "failed" ? "error" : phase === "skipped" ? "warning" : "info";
    void sendNotification(io, settings.sinks, {
      v: 1,
      kind: "run",
      hook_id: identity.hookId,
      ...(project !== undefined ? { project } : {}),
      level,
      title: `Hookbox: ${identity.hookId} ${phase}`,
      message: `${identity.reason}: ${detail}`.slice(0, 4096),
      phase,
      trigger: identity.trigger,
      run_id: identity.runId,
      at: new Date(this.options.clock.now()).toISOString(),
    }).then((delivery) => {
      for (const failure of delivery.failed) this.options.log(`triggers: a notification of ${identity.hookId} was not delivered: ${failure}`);
    });
  }
}
