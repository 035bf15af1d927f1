import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { SandboxEngine } from "../../sandbox/index.ts";
import type { AuditEntry, AuditRecordV1 } from "../../src/decide/audit/record.ts";
import { operatorFileSchema } from "../../src/hooks/config/schema.ts";
import { engineExecutor } from "../../src/decide/chain/chain.ts";
import { cooldownsFilePath, FileCooldowns, MemoryCooldowns, type CooldownStore } from "../../src/decide/chain/cooldowns.ts";
import { Dispatcher } from "../../src/decide/chain/dispatcher.ts";
import { createInvoker } from "../../src/decide/chain/invoker.ts";
import { parseEvent } from "../../src/core/events/parse.ts";
import type { Decision } from "../../src/core/events/types.ts";
import type { TriggeredRun } from "../../src/decide/evaluator.ts";
import { PendingInjections } from "../../src/decide/pending.ts";
import { Registry } from "../../src/hooks/registry/registry.ts";
import { nodeFileHost } from "../../src/platform/node.ts";
import { nodeCapabilityIO } from "../../src/platform/node-capability-io.ts";
import type { NotifyIO } from "../../src/platform/index.ts";
import { TriggerRunner } from "../../src/serve/triggers/index.ts";
import { fakeCapabilities } from "../helpers/fake-capabilities.ts";
import { memoryFs } from "../helpers/memory-fs.ts";
import { createEngine } from "../helpers/sandbox.ts";
import { FakeClock, settle } from "./fake-clock.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "hookbox-triggers-")));
  dirs.push(dir);
  return dir;
}

const PROJECT = "/work/project";
const HANDLER = "export default () => ({ reason: 'ran' })";

async function registryOf(hooks: Record<string, unknown>[], operator: Record<string, unknown> = {}): Promise<Registry> {
  const files: Record<string, string> = {};
  hooks.forEach((hook, index) => (files[`/hooks/${index}-${String(hook.id)}.yaml`] = stringify({ handler: { code: HANDLER }, ...hook })));
  const parsed = operatorFileSchema.parse(operator);
  const registry = await Registry.load(
    async () => ({ sources: [{ dir: "/hooks", origin: "dir", required: false }], operator: parsed, operatorFile: undefined, embedded: new Map() }),
    {
      fs: memoryFs(files),
      capabilities: fakeCapabilities(),
    },
  );
  const problems = registry.current().diagnostics;
  if (problems.length > 0) throw new Error(JSON.stringify(problems));
  return registry;
}

/** One run the test finishes when it wants: in-flight and the cap are seen without sleeping. */
interface HeldRun {
  readonly run: TriggeredRun;
  finish(status?: AuditRecordV1["status"]): void;
}

/**
 * The evaluator the runner drives, over a real registry and cooldown store: each run is held
 * until the test finishes it (or finished at once with `autoFinish`).
 */
function fakeEvaluator(registry: Registry, cooldowns: CooldownStore, project: string | undefined = PROJECT, autoFinish = false) {
  const runs: HeldRun[] = [];
  const written: AuditEntry[] = [];
  const pending = new PendingInjections();
  const evaluator = {
    cooldowns,
    pending,
    hookSets: {
      projects: () => [project],
      servesProjects: () => true,
      ifLoaded: async (p: string | undefined) => (p === project ? { project, snapshot: registry.current() } : undefined),
      forProject: async (p: string | undefined) => ({ project: p, snapshot: registry.current() }),
    },
    writeRecords: async (records: readonly AuditEntry[]) => void written.push(...records),
    runTriggered: (run: TriggeredRun) =>
      new Promise<{ decision: Decision; records: readonly AuditRecordV1[] }>((resolve) => {
        const finish = (status: AuditRecordV1["status"] = "completed"): void => {
          const record = { hook_id: run.hookId, status, run_id: run.runId, trigger: run.trigger?.kind ?? "manual" } as AuditRecordV1;
          written.push(record);
          resolve({
            decision: {
              context_injections: status === "completed" ? [{ hook_id: run.hookId, role: "system", content: `from ${run.hookId}` }] : [],
            } as unknown as Decision,
            records: [record],
          });
        };
        runs.push({ run, finish });
        if (autoFinish) finish();
      }),
  };
  const skips = (): AuditRecordV1[] => written.filter((r): r is AuditRecordV1 => r.kind === "run" && r.status === "skipped");
  return { evaluator: evaluator as unknown as ConstructorParameters<typeof TriggerRunner>[0]["evaluator"], runs, written, skips, pending };
}

function runner(evaluator: ConstructorParameters<typeof TriggerRunner>[0]["evaluator"], clock: FakeClock, notify?: NotifyIO): TriggerRunner {
  return new TriggerRunner({ evaluator, clock, io: nodeCapabilityIO, log: () => undefined, ...(notify ? { notify } : {}) });
}

const T0 = Date.UTC(2026, 0, 1, 0, 1, 0);
const S = 1000;

describe("schedules", () => {
  it("every 60 s with a 300 s cooldown: runs at once, is skipped (recorded once) while cooling, runs again after it", async () => {
    const registry = await registryOf([{ id: "tests", every: "60s", cooldown_seconds: 300 }]);
    const { evaluator, runs, skips } = fakeEvaluator(registry, new MemoryCooldowns(), PROJECT, true);
    const clock = new FakeClock(T0);
    const r = runner(evaluator, clock);
    await r.check();
    await r.idle();
    expect(runs.map((x) => x.run.trigger)).toEqual([{ kind: "periodic", reason: "every 60 s" }]);
    expect(runs[0]?.run.event).toMatchObject({ event_type: "periodic", cwd: PROJECT, current_time: new Date(T0).toISOString() });
    expect(runs[0]?.run.event).not.toHaveProperty("last_run_time");
    for (const at of [60, 65, 120, 299]) {
      await clock.advance(at * S - (clock.now() - T0));
      await r.check();
    }
    expect(runs).toHaveLength(1);
    expect(skips()).toHaveLength(1);
    expect(skips()[0]?.reason).toMatch(/^cooldown: 60\.0 s since its last run \(cooldown_seconds: 300\)/);
    expect(skips()[0]).toMatchObject({ trigger: "periodic", hook_id: "tests" });
    await clock.advance(300 * S - (clock.now() - T0));
    await r.check();
    await r.idle();
    expect(runs).toHaveLength(2);
    expect(runs[1]?.run.event).toMatchObject({ last_run_time: new Date(T0).toISOString(), seconds_since_last_run: 300 });
    await r.stop();
  });

  it("the cooldown survives a restart: a new runner over the same data directory waits out the interval", async () => {
    const dataDir = tempDir();
    const registry = await registryOf([{ id: "tests", every: "60s" }]);
    const store = () => new FileCooldowns({ fs: nodeFileHost, path: cooldownsFilePath(dataDir), pid: process.pid });
    const clock = new FakeClock(T0);
    const first = fakeEvaluator(registry, store(), PROJECT, true);
    const before = runner(first.evaluator, clock);
    await before.check();
    await before.stop();
    expect(first.runs).toHaveLength(1);

    const again = fakeEvaluator(registry, store(), PROJECT, true);
    const after = runner(again.evaluator, clock);
    await clock.advance(30 * S);
    await after.check();
    expect(again.runs).toHaveLength(0);
    await clock.advance(30 * S);
    await after.check();
    await after.idle();
    expect(again.runs).toHaveLength(1);
    await after.stop();
  });

  it("a hook already in flight is skipped, not queued (recorded once per reason), and runs again once it finished", async () => {
    const registry = await registryOf([{ id: "slow", every: "10s" }]);
    const { evaluator, runs, skips } = fakeEvaluator(registry, new MemoryCooldowns());
    const clock = new FakeClock(T0);
    const r = runner(evaluator, clock);
    await r.check();
    expect(r.inFlight()).toBe(1);
    await clock.advance(10 * S);
    await r.check();
    await clock.advance(10 * S);
    await r.check();
    expect(runs).toHaveLength(1);
    expect(skips().map((s) => s.reason)).toEqual(["in flight: its previous run has not finished (a triggered hook is skipped, not queued)"]);
    runs[0]?.finish();
    await r.idle();
    await clock.advance(10 * S);
    await r.check();
    expect(runs).toHaveLength(2);
    runs[1]?.finish();
    await r.stop();
  });

  it("the cap counts running hooks: at triggers.max_concurrent the check stops examining the hooks after", async () => {
    const registry = await registryOf(
      ["a", "b", "c", "d"].map((id, index) => ({ id, every: "10s", priority: index + 1 })),
      { triggers: { max_concurrent: 2 } },
    );
    const { evaluator, runs, skips } = fakeEvaluator(registry, new MemoryCooldowns());
    const clock = new FakeClock(T0);
    const r = runner(evaluator, clock);
    await r.check();
    expect(runs.map((x) => x.run.hookId)).toEqual(["a", "b"]);
    // c is recorded as not started; d was not examined at all.
    expect(skips().map((s) => [s.hook_id, s.reason])).toEqual([
      ["c", "2 triggered hooks are running (triggers.max_concurrent: 2); the hooks after it were not examined"],
    ]);
    runs[0]?.finish();
    await settle();
    await r.check();
    expect(runs.map((x) => x.run.hookId)).toEqual(["a", "b", "c"]);
    for (const run of runs.slice(1)) run.finish();
    await r.idle();
    await r.check();
    expect(runs.map((x) => x.run.hookId)).toEqual(["a", "b", "c", "d"]);
    runs[3]?.finish();
    await r.stop();
  });

  it("cron: runs at the pattern's times after the runner started, not for times before", async () => {
    const registry = await registryOf([{ id: "report", cron: "*/5 * * * *" }]);
    const { evaluator, runs } = fakeEvaluator(registry, new MemoryCooldowns(), PROJECT, true);
    const clock = new FakeClock(T0); // 00:01:00
    const r = runner(evaluator, clock);
    const at = async (minutes: number): Promise<number> => {
      await clock.advance(T0 + minutes * 60 * S - clock.now());
      await r.check();
      await r.idle();
      return runs.length;
    };
    expect(await at(0)).toBe(0);
    expect(await at(3)).toBe(0);
    expect(await at(4)).toBe(1); // 00:05
    expect(await at(6)).toBe(1);
    expect(await at(8.9)).toBe(1);
    expect(await at(9)).toBe(2); // 00:10
    expect(runs[0]?.run.trigger).toEqual({ kind: "periodic", reason: "cron */5 * * * *" });
    await r.stop();
  });
});

describe("shared with emit", () => {
  let engine: SandboxEngine;
  beforeAll(async () => {
    engine = await createEngine();
  });
  afterAll(() => engine.dispose());

  it("a scheduled run and an agent's event claim one cooldown through the data directory, each way", async () => {
    const dataDir = tempDir();
    const store = (pid: number) => new FileCooldowns({ fs: nodeFileHost, path: cooldownsFilePath(dataDir), pid });
    const registry = await registryOf([{ id: "review", events: ["UserPromptSubmit"], every: "60s", cooldown_seconds: 60 }]);
    // emit: another process, its own store instance over the same file, the real pipeline.
    const emit = new Dispatcher(createInvoker(engineExecutor(engine), fakeCapabilities()), 4, store(process.pid + 1));
    const prompt = parseEvent({ event_type: "UserPromptSubmit", session_id: "s", prompt: "hi", cwd: PROJECT });
    const first = await emit.handle(prompt, registry.current(), { project: PROJECT });
    expect(first.records.map((r) => r.status)).toEqual(["completed"]);

    const clock = new FakeClock(Date.now());
    const daemon = fakeEvaluator(registry, store(process.pid), PROJECT, true);
    const r = runner(daemon.evaluator, clock);
    await r.check();
    expect(daemon.runs).toHaveLength(0); // emit ran it just now: not due
    await clock.advance(61 * S);
    await r.check();
    await r.idle();
    expect(daemon.runs).toHaveLength(1);
    await r.stop();
    // emit, in real time, finds the daemon's run (claimed at the fake clock's time, a minute ahead).
    const second = await emit.handle(prompt, registry.current(), { project: PROJECT });
    expect(second.records.map((r) => [r.status, r.reason?.replace(/[\d.-]+ s since/, "N s since")])).toEqual([
      ["skipped", "cooldown: N s since its last run (cooldown_seconds: 60)"],
    ]);
  });
});

describe("watches", () => {
  it("a change in a watched folder runs the hook once after the debounce, with folder.changed; its injection is queued for the project", async () => {
    const root = tempDir();
    mkdirSync(join(root, "docs"));
    writeFileSync(join(root, "docs", "a.md"), "one");
    const registry = await registryOf([{ id: "docs", watch: { paths: ["docs"], debounce_ms: 2000 } }]);
    const { evaluator, runs, pending } = fakeEvaluator(registry, new MemoryCooldowns(), root, true);
    const clock = new FakeClock(T0);
    const r = runner(evaluator, clock);
    await r.check();
    const watcher = r.watcherOf(root, "docs");
    expect(watcher).toBeDefined();
    writeFileSync(join(root, "docs", "b.md"), "new");
    writeFileSync(join(root, "docs", "a.md"), "one, longer");
    utimesSync(join(root, "docs", "a.md"), 5000, 5000);
    await watcher?.scan();
    await clock.advance(1999);
    await r.idle();
    expect(runs).toHaveLength(0);
    await clock.advance(1);
    await r.idle();
    expect(runs).toHaveLength(1);
    expect(runs[0]?.run.trigger).toEqual({ kind: "watch", reason: "folder.changed docs (2 changes)" });
    expect(runs[0]?.run.event).toMatchObject({
      event_type: "folder.changed",
      relative_path: "docs",
      count: 2,
      changes: [
        { path: "docs/a.md", operation: "modified" },
        { path: "docs/b.md", operation: "created" },
      ],
    });
    expect(pending.size(root)).toBe(1);
    expect(pending.take(root, 1 << 20, clock.now())[0]).toMatchObject({ hook_id: "docs", content: "from docs", trigger: "watch" });
    await r.stop();
  });

  it("a path outside the project is not watched", async () => {
    const root = tempDir();
    const registry = await registryOf([{ id: "escape", watch: { paths: ["../elsewhere", "/etc"] } }]);
    const logs: string[] = [];
    const { evaluator } = fakeEvaluator(registry, new MemoryCooldowns(), root, true);
    const r = new TriggerRunner({ evaluator, clock: new FakeClock(T0), io: nodeCapabilityIO, log: (line) => logs.push(line) });
    await r.check();
    expect(r.watcherOf(root, "escape")).toBeUndefined();
    expect(logs.join("\n")).toMatch(/\.\.\/elsewhere is outside .*: not watched/);
    expect(logs.join("\n")).toMatch(/\/etc is outside .*: not watched/);
    await r.stop();
  });
});

describe("manual fire and notifications", () => {
  it("a manual fire runs inside the cooldown, records the run as the last, and the sinks hear started and completed", async () => {
    const registry = await registryOf([{ id: "tests", every: "1h" }], { notify: { sinks: [{ command: ["/bin/cat"] }] } });
    const cooldowns = new MemoryCooldowns();
    const { evaluator, runs } = fakeEvaluator(registry, cooldowns, PROJECT, true);
    const sent: string[] = [];
    const notify: NotifyIO = { command: async (_argv, stdin) => (sent.push(stdin), 0), postJson: async () => 200, desktop: () => true };
    const clock = new FakeClock(T0);
    const r = runner(evaluator, clock, notify);
    await r.check();
    await r.idle();
    await clock.advance(60 * S);
    const fired = await r.fire(PROJECT, "tests");
    expect(fired).toMatchObject({ status: "completed" });
    expect(runs.map((x) => x.run.trigger?.kind ?? "manual")).toEqual(["periodic", "manual"]);
    await settle();
    const phases = sent.map((line) => JSON.parse(line) as { phase: string; hook_id: string; kind: string });
    expect(phases.map((p) => p.phase)).toEqual(["started", "completed", "started", "completed"]);
    expect(phases.every((p) => p.kind === "run" && p.hook_id === "tests")).toBe(true);
    expect(await r.fire(PROJECT, "nope")).toBeUndefined();
    await r.stop();
  });
});
