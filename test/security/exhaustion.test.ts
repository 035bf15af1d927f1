import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/daemon.ts";
import { Fortress, type Fired, type HookDef } from "./harness.ts";

/**
 * Pool exhaustion: every sandbox worker wedged at once (by a guest stuck in a built-in, or by
 * SIGSTOP from outside), and more events than the dispatcher will hold. The daemon must keep
 * answering what needs no worker, answer every event (an error is an answer, a hang is not),
 * replace every worker it killed, and go back to evaluating correctly.
 */

/** Stuck in a native built-in: only a worker kill ends it; with all the CPU a hook may have, the wall clock's. */
const WEDGE: HookDef = {
  id: "wedge",
  limits: { timeout_ms: 1500, cpu_ms: 60_000 },
  source: "export default () => Array.prototype.indexOf.call({ length: 2 ** 32 - 1 }, 1)",
};
/** Answers at once, but gives up after a second: for events sent to stopped workers. */
const QUICK: HookDef = { id: "quick", limits: { timeout_ms: 1000 }, source: 'export default () => ({ reason: "quick" })' };
const ISOLATION: HookDef[] = [
  {
    id: "polluter",
    source:
      'export default () => { (globalThis as any).shared = "from polluter"; (Object.prototype as any).action = "deny"; (Array.prototype as any).push = () => 0; (JSON as any).stringify = () => "{}"; return { reason: "polluted" }; }',
  },
  {
    id: "reader",
    source:
      'export default () => ({ reason: [typeof (globalThis as any).shared, String(({} as any).action), [1].push(2), JSON.stringify({ a: 1 })].join(" ") })',
  },
];

interface PoolStats {
  readonly timeoutKills: number;
  readonly respawns: number;
  readonly workers: readonly { pid: number; state: string }[];
}

async function poolStats(fortress: Fortress): Promise<PoolStats> {
  const health = await call(fortress.socket, "GET", "/healthz");
  expect(health.status).toBe(200);
  return (health.json as { checks: { sandbox: { detail: { pool: PoolStats } } } }).checks.sandbox.detail.pool;
}

/**
 * The pool's stats once `size` workers are up (a replaced worker takes a moment to start) —
 * `idle`: and none has work (a new worker may first build guests ahead of events).
 */
async function settledPool(fortress: Fortress, size: number, { idle = false } = {}): Promise<PoolStats> {
  for (let i = 0; ; i++) {
    const stats = await poolStats(fortress);
    const live = stats.workers.filter((w) => w.state === "idle" || (!idle && w.state === "busy"));
    if (live.length === size || i >= 100) return stats;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Resolves with the order in which the promises settled. */
function settleOrder(named: Record<string, Promise<unknown>>): Promise<string[]> {
  const order: string[] = [];
  return Promise.all(Object.entries(named).map(([name, promise]) => promise.then(() => order.push(name)))).then(() => order);
}

describe("every worker wedged at once (two workers)", () => {
  let fortress: Fortress;
  beforeAll(async () => {
    fortress = await Fortress.start([WEDGE, QUICK, ...ISOLATION], { workers: 2 });
  });
  afterAll(async () => {
    await fortress?.stop();
  });

  it("six guests stuck in a built-in: routes that need no worker answer first, every event is answered, every worker is replaced", async () => {
    const before = await settledPool(fortress, 2);
    const mark = fortress.mark();
    const wedges = Array.from({ length: 6 }, (_, i) => fortress.post("sec.wedge", { cwd: fortress.workspace, n: i }));
    await new Promise((r) => setTimeout(r, 200));
    const benign = fortress.benign("while-wedged");
    const hooks = call(fortress.socket, "GET", "/v1/hooks");
    const metrics = call(fortress.socket, "GET", "/metrics");
    const order = await settleOrder({ hooks, metrics, firstWedge: Promise.race(wedges), benign });
    // Listing hooks and metrics needs no sandbox: they do not wait for a wedged worker.
    expect(order.indexOf("hooks")).toBeLessThan(order.indexOf("firstWedge"));
    expect(order.indexOf("metrics")).toBeLessThan(order.indexOf("firstWedge"));
    expect((await hooks).status).toBe(200);
    expect((await metrics).text).toMatch(/hookbox_sandbox_kills_total/);

    const replies: Fired[] = await Promise.all(wedges);
    for (const reply of replies) {
      expect(reply.status).toBe(200);
      expect(reply.run("wedge")).toMatchObject({ status: "failed", error_code: "sandbox_timeout" });
    }
    const records = fortress.auditSince(mark).filter((r) => r.hook_id === "wedge");
    expect(records.map((r) => r.error_code)).toEqual(Array(6).fill("sandbox_timeout"));

    const after = await settledPool(fortress, 2);
    expect(after.timeoutKills - before.timeoutKills).toBe(6);
    expect(after.workers.filter((w) => w.state === "idle" || w.state === "busy")).toHaveLength(2);
    const oldPids = new Set(before.workers.map((w) => w.pid));
    expect(after.workers.every((w) => !oldPids.has(w.pid))).toBe(true);
    await fortress.benign("after-wedge");
    fortress.expectNoLeak(mark);
  });

  it("every worker stopped with SIGSTOP: the events sent to them time out, the workers are replaced", async () => {
    // Both idle when stopped, so that each event goes to a stopped worker of its own.
    const before = await settledPool(fortress, 2, { idle: true });
    const stopped = before.workers.map((w) => w.pid);
    expect(stopped).toHaveLength(2);
    for (const pid of stopped) process.kill(pid, "SIGSTOP");
    try {
      const replies = await Promise.all([
        fortress.post("sec.quick", { cwd: fortress.workspace }),
        fortress.post("sec.quick", { cwd: fortress.workspace }),
      ]);
      // Every event is answered, none hangs. Each goes to a stopped worker and times out — unless the
      // pool's view changed between the look above and the events (a worker busy again): a chain
      // held unstarted by a stopped worker goes back to the queue when that worker is killed at its
      // step's timeout, and runs on a replacement (a loaded CI machine saw one complete that way).
      const runs = replies.map((reply) => reply.run("quick"));
      for (const run of runs) expect(["failed: sandbox_timeout", "completed: quick"]).toContain(`${run.status}: ${run.error_code ?? run.reason}`);
      expect(runs.filter((run) => run.error_code === "sandbox_timeout").length, "events that timed out on a stopped worker").toBeGreaterThan(0);
      const after = await settledPool(fortress, 2);
      for (const pid of stopped) expect(after.workers.map((w) => w.pid)).not.toContain(pid);
      for (const pid of stopped) expect(() => process.kill(pid, 0), `worker ${pid} still exists`).toThrow();
      await fortress.benign("after-sigstop");
    } finally {
      for (const pid of stopped) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone: replaced by the pool
        }
      }
    }
  }, 30_000);

  it("one hook's globals and prototype changes are invisible to another hook (both warm, same daemon)", async () => {
    // Several rounds, so the two hooks share a worker at some point whatever the routing.
    for (let i = 0; i < 4; i++) {
      expect((await fortress.post("sec.polluter", { cwd: fortress.workspace })).run("polluter")).toMatchObject({
        status: "completed",
        reason: "polluted",
      });
      expect((await fortress.post("sec.reader", { cwd: fortress.workspace })).run("reader")).toMatchObject({
        status: "completed",
        reason: 'undefined undefined 2 {"a":1}',
      });
    }
    await fortress.plain();
    fortress.expectCanariesIntact();
  });
});

describe("more events than the dispatcher holds (concurrency 2, event deadline 2.5 s)", () => {
  let fortress: Fortress;
  beforeAll(async () => {
    fortress = await Fortress.start([WEDGE], { workers: 2, operator: { dispatch: { concurrency: 2, event_deadline_ms: 2500 } } });
  });
  afterAll(async () => {
    await fortress?.stop();
  });

  it("twelve wedged events: each is answered — run and timed out, or skipped for want of a slot — none hangs", async () => {
    const mark = fortress.mark();
    const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => fortress.post("sec.wedge", { cwd: fortress.workspace, n: i }, 20_000)));
    const runs = replies.map((reply) => {
      expect(reply.status).toBe(200);
      return reply.run("wedge");
    });
    const skipped = runs.filter((r) => r.status === "skipped");
    const failed = runs.filter((r) => r.status === "failed");
    expect(skipped.length + failed.length).toBe(12);
    expect(skipped.length).toBeGreaterThan(0);
    for (const run of skipped) expect(run.reason).toMatch(/no invocation slot became free before the event deadline|event deadline/);
    for (const run of failed) expect(run.error_code).toBe("sandbox_timeout");
    expect(fortress.auditSince(mark).filter((r) => r.hook_id === "wedge")).toHaveLength(12);
    await fortress.benign("after-saturation");
    fortress.expectNoLeak(mark);
    fortress.expectCanariesIntact();
  });
});
