import { describe, expect, it } from "vitest";
import { SandboxPool, type HostCallFn, type PoolOptions } from "../../sandbox/index.ts";
import { nodeSandboxHost } from "../../src/platform/node.ts";
import { handlerSpec, limits, noHost } from "../helpers/sandbox.ts";

const GOOD = `export default (e: { n: number }) => ({ doubled: e.n * 2 })`;
const WAITER = `export default (e: unknown, hook: any) => hook.readFile("x")`;

function live(pool: SandboxPool): number[] {
  return pool
    .stats()
    .workers.filter((w) => w.state === "idle" || w.state === "busy" || w.state === "starting")
    .map((w) => w.pid as number);
}

async function until(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function withPool(options: Omit<PoolOptions, "spawn">, body: (pool: SandboxPool, spawned: () => number) => Promise<void>): Promise<void> {
  let spawned = 0;
  const pool = new SandboxPool({
    spawn: () => {
      spawned++;
      return nodeSandboxHost.spawnWorker();
    },
    ...options,
  });
  try {
    await pool.ready();
    await body(pool, () => spawned);
  } finally {
    await pool.close();
  }
}

describe("a pool sized on demand (minWorkers … maxWorkers, idleMs)", () => {
  it("starts minWorkers, grows while every worker is busy and work waits, then reaps the idle surplus", async () => {
    await withPool({ minWorkers: 1, maxWorkers: 3, idleMs: 300 }, async (pool, spawned) => {
      expect(live(pool)).toHaveLength(1);
      expect(pool.stats()).toMatchObject({ size: 1, minWorkers: 1, maxWorkers: 3 });
      // Three slow invocations at once: the pool starts two more workers for the two that wait.
      const slow: HostCallFn = () => new Promise((resolve) => setTimeout(() => resolve("done"), 600));
      const waiter = await handlerSpec(WAITER, { hostFunctions: ["readFile"] });
      const outcomes = await Promise.all([0, 1, 2].map(() => pool.invoke(waiter, {}, limits(), slow)));
      expect(outcomes.map((o) => o.ok)).toEqual([true, true, true]);
      expect(spawned()).toBe(3);
      expect(pool.stats().grown).toBe(2);
      // Idle for idleMs: back to minWorkers; the pool still answers.
      await until("the surplus to be reaped", () => live(pool).length === 1);
      expect(pool.stats()).toMatchObject({ reaped: 2, crashes: 0, respawns: 0 });
      expect(await pool.invoke(await handlerSpec(GOOD), { n: 4 }, limits(), noHost)).toMatchObject({ ok: true, value: { doubled: 8 } });
    });
  });

  it("never exceeds maxWorkers: the rest waits in the queue, and nothing grows for work a free worker can take", async () => {
    await withPool({ minWorkers: 1, maxWorkers: 2, idleMs: 60_000 }, async (pool, spawned) => {
      const good = await handlerSpec(GOOD);
      // Sequential work never finds every worker busy.
      for (let n = 0; n < 5; n++) expect(await pool.invoke(good, { n }, limits(), noHost)).toMatchObject({ ok: true });
      expect(spawned()).toBe(1);
      const slow: HostCallFn = () => new Promise((resolve) => setTimeout(() => resolve("done"), 300));
      const waiter = await handlerSpec(WAITER, { hostFunctions: ["readFile"] });
      const outcomes = await Promise.all(Array.from({ length: 6 }, () => pool.invoke(waiter, {}, limits(), slow)));
      expect(outcomes.every((o) => o.ok)).toBe(true);
      expect(spawned()).toBe(2);
      expect(live(pool)).toHaveLength(2);
    });
  });

  it("minWorkers 0: no worker until work arrives, none once idle", async () => {
    await withPool({ minWorkers: 0, maxWorkers: 1, idleMs: 200 }, async (pool) => {
      expect(live(pool)).toEqual([]);
      expect(await pool.invoke(await handlerSpec(GOOD), { n: 1 }, limits(), noHost)).toMatchObject({ ok: true, value: { doubled: 2 } });
      await until("the only worker to be reaped", () => live(pool).length === 0);
    });
  });

  it("startWorkers: a worker is ready before any work, stops once idle, and the next invocation starts one again (the daemon's default)", async () => {
    await withPool({ minWorkers: 0, maxWorkers: 2, startWorkers: 1, idleMs: 200 }, async (pool, spawned) => {
      expect(live(pool)).toHaveLength(1);
      expect(pool.stats()).toMatchObject({ size: 1, minWorkers: 0 });
      await until("the started worker to be reaped", () => live(pool).length === 0);
      expect(pool.stats()).toMatchObject({ reaped: 1 });
      expect(await pool.invoke(await handlerSpec(GOOD), { n: 4 }, limits(), noHost)).toMatchObject({ ok: true, value: { doubled: 8 } });
      expect(spawned()).toBe(2);
      await until("the new worker to be reaped", () => live(pool).length === 0);
    });
  });

  it("a worker killed on timeout is replaced up to minWorkers; a full queue is still an immediate error", async () => {
    await withPool({ minWorkers: 1, maxWorkers: 1, idleMs: 200, maxQueue: 1 }, async (pool) => {
      const [pid] = live(pool);
      const wedge = await handlerSpec(`export default () => Array.prototype.indexOf.call({ length: 2 ** 32 - 1 }, 1)`);
      const stuck = pool.invoke(wedge, {}, limits({ timeoutMs: 300 }), noHost);
      await new Promise((r) => setTimeout(r, 50));
      const queued = pool.invoke(await handlerSpec(GOOD), { n: 5 }, limits(), noHost);
      const refused = await pool.invoke(await handlerSpec(GOOD), { n: 6 }, limits(), noHost);
      expect(refused.ok ? "" : refused.failure.code).toBe("sandbox_queue_full");
      expect(refused.ok ? "" : refused.failure.message).toMatch(/at most 1\)/);
      expect((await stuck).ok ? "" : "sandbox_timeout").toBe("sandbox_timeout");
      expect(await queued).toMatchObject({ ok: true, value: { doubled: 10 } });
      expect(live(pool)).toHaveLength(1);
      expect(live(pool)).not.toContain(pid);
      expect(pool.stats()).toMatchObject({ timeoutKills: 1, respawns: 1, reaped: 0 });
    });
  });

  it("refuses impossible options before starting anything", () => {
    const spawn = (): never => {
      throw new Error("must not spawn");
    };
    expect(() => new SandboxPool({ spawn, size: 2, maxWorkers: 3 })).toThrow(/either size .* or minWorkers\/maxWorkers/);
    expect(() => new SandboxPool({ spawn })).toThrow(/maxWorkers \(or size\) is required/);
    expect(() => new SandboxPool({ spawn, minWorkers: 3, maxWorkers: 2 })).toThrow(/minWorkers must be an integer from 0 to maxWorkers \(2\), got 3/);
    expect(() => new SandboxPool({ spawn, maxWorkers: 0 })).toThrow(/positive integer/);
    expect(() => new SandboxPool({ spawn, minWorkers: 1, maxWorkers: 2, startWorkers: 0 })).toThrow(
      /startWorkers must be an integer from minWorkers \(1\) to maxWorkers \(2\), got 0/,
    );
    expect(() => new SandboxPool({ spawn, minWorkers: 0, maxWorkers: 2, startWorkers: 3 })).toThrow(/startWorkers must be/);
  });
});
