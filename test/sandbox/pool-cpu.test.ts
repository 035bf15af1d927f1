import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { SandboxPool, type WorkerProcess } from "../../sandbox/index.ts";
import { nodeSandboxHost } from "../../src/platform/node.ts";
import { handlerSpec, limits, noHost } from "../helpers/sandbox.ts";

/**
 * The pool's CPU backstop (SECURITY.md F6): while a step runs, the pool reads the worker's CPU
 * time and kills it past the step's cpuMs, for guests that keep QuickJS from polling its
 * interrupt. First over scripted workers whose clock the test sets, then over real ones.
 */

type Clock = "busy" | "waiting" | "none";

/** A worker that gets ready and never answers a chain; its CPU clock runs like a busy thread's, stands still, or is absent. */
function silentWorker(clock: Clock): WorkerProcess {
  const started = performance.now();
  const exits: ((exit: { code: number | null; signal: string | null }) => void)[] = [];
  let dead = false;
  return {
    pid: undefined,
    send: () => undefined,
    onMessage: (listener) => queueMicrotask(() => listener({ t: "ready", v: 2 })),
    onExit: (listener) => exits.push(listener),
    stderrTail: () => "",
    kill: () => {
      if (dead) return;
      dead = true;
      for (const listener of exits) listener({ code: null, signal: "SIGKILL" });
    },
    ...(clock === "none" ? {} : { cpuTimeMs: () => (dead ? undefined : clock === "busy" ? performance.now() - started : 7) }),
  };
}

const pools: SandboxPool[] = [];

async function poolOf(spawn: () => WorkerProcess): Promise<SandboxPool> {
  const pool = new SandboxPool({ spawn, size: 1, killGraceMs: 50 });
  pools.push(pool);
  await pool.ready();
  return pool;
}

afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close(0);
});

const RECURSE = "function f(d: number): number { try { return f(d + 1); } catch { return f(d + 1); } }\nexport default () => f(0);";

describe("the pool's CPU backstop, over scripted workers", () => {
  it("a worker that spends the step's CPU budget is killed: sandbox_cpu naming the limit, the CPU it used, and a new worker", async () => {
    const pool = await poolOf(() => silentWorker("busy"));
    const outcome = await pool.invoke(await handlerSpec("export default () => 1"), {}, limits({ cpuMs: 30, timeoutMs: 60_000 }), noHost);
    expect(outcome).toMatchObject({
      ok: false,
      failure: {
        code: "sandbox_cpu",
        limit: { name: "cpuMs", value: 30 },
        message: expect.stringMatching(/^cpu limit 30 ms exceeded \(\d+ ms of CPU time, measured by the host/),
      },
    });
    expect(outcome.stats.cpuMs).toBeGreaterThan(30);
    expect(outcome.stats.wallMs).toBeGreaterThanOrEqual(outcome.stats.cpuMs);
    expect(pool.stats()).toMatchObject({ cpuKills: 1, timeoutKills: 0, crashes: 0, respawns: 1 });
  });

  for (const [clock, why] of [
    ["waiting", "whose CPU time stands still (it waits on host calls)"],
    ["none", "whose CPU time cannot be read (no /proc)"],
  ] as const) {
    it(`a worker ${why} is not killed for CPU: the wall clock ends the step`, async () => {
      const pool = await poolOf(() => silentWorker(clock));
      const outcome = await pool.invoke(await handlerSpec("export default () => 1"), {}, limits({ cpuMs: 1, timeoutMs: 200 }), noHost);
      expect(outcome).toMatchObject({ ok: false, failure: { code: "sandbox_timeout" } });
      expect(outcome.stats.wallMs).toBeGreaterThan(200);
      expect(pool.stats()).toMatchObject({ cpuKills: 0, timeoutKills: 1 });
    });
  }
});

describe.each([
  ["worker processes", () => nodeSandboxHost.spawnWorker()],
  ["worker threads", () => nodeSandboxHost.spawnThreadWorker()],
])("the pool's CPU backstop, over real %s (Node)", (_name, spawn) => {
  it("a handler that catches stack overflows and recurses again ends sandbox_cpu within 100 ms of CPU past cpu_ms", async (ctx) => {
    if (!existsSync("/proc/thread-self")) ctx.skip("no /proc here: cpu_ms rests on QuickJS's interrupt alone");
    const pool = await poolOf(spawn);
    const outcome = await pool.invoke(await handlerSpec(RECURSE), {}, limits({ cpuMs: 50 }), noHost);
    expect(outcome).toMatchObject({ ok: false, failure: { code: "sandbox_cpu" } });
    expect(outcome.stats.cpuMs).toBeGreaterThan(50);
    expect(outcome.stats.cpuMs).toBeLessThanOrEqual(50 + 100);
    expect(pool.stats().cpuKills).toBe(1);
    expect(await pool.invoke(await handlerSpec("export default () => ({ after: true })"), {}, limits(), noHost)).toMatchObject({
      ok: true,
      value: { after: true },
    });
  });

  it("host calls don't count: a step that waits on a host call far past its cpu_ms completes", async () => {
    const pool = await poolOf(spawn);
    const spec = await handlerSpec("export default async (_e, hook) => ({ got: await hook.env('X') })", { hostFunctions: ["env"] });
    // cpu_ms 200 (the guest's own clock is wall time inside QuickJS: a busy machine stretches it); the host call takes three times that.
    const slowHost = () => new Promise((resolve) => setTimeout(() => resolve("late"), 600));
    expect(await pool.invoke(spec, {}, limits({ cpuMs: 200 }), slowHost)).toMatchObject({ ok: true, value: { got: "late" } });
    expect(pool.stats().cpuKills).toBe(0);
  });
});
