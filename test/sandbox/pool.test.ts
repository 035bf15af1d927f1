import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MiB, type HostCallFn, type InvocationOutcome, type SandboxPool } from "../../sandbox/index.ts";
import { createPool, handlerSpec, limits, memoryOf, noHost, workerPids } from "../helpers/sandbox.ts";

function codeOf(outcome: InvocationOutcome): string {
  return outcome.ok ? "ok" : outcome.failure.code;
}

const GOOD = `interface E { n: number }\nexport default (e: E) => ({ doubled: e.n * 2 });`;

describe("a pool of worker processes", () => {
  let pool: SandboxPool;
  beforeAll(async () => {
    pool = await createPool(2);
  });
  afterAll(() => pool.close());

  // Timing bound from the acceptance; retried because a loaded CI machine can stall any process.
  it("while(true) with cpu_ms 50 fails on CPU within 2x cpu_ms of CPU time, and the next call works", async () => {
    const spinner = await handlerSpec(`export default () => { while (true) {} }`);
    const good = await handlerSpec(GOOD);
    await pool.invoke(spinner, {}, limits({ cpuMs: 50 }), noHost); // warm the slot's module in one worker
    const outcome = await pool.invoke(spinner, {}, limits({ cpuMs: 50 }), noHost);
    expect(codeOf(outcome)).toBe("sandbox_cpu");
    // CPU time, not wall time: a busy machine stretches the wall clock, not the guest's CPU.
    expect(outcome.stats.cpuMs).toBeLessThan(100);
    expect(await pool.invoke(good, { n: 21 }, limits(), noHost)).toMatchObject({ ok: true, value: { doubled: 42 } });
  });

  it("a failure in a worker is in TypeScript coordinates too (the source map travels with the code)", async () => {
    const source = `export default function (event: { a?: { b: number } }): number {\n  const skip: readonly string[] = []; return event.a!.b + skip.length;\n}\n`;
    const outcome = await pool.invoke(await handlerSpec(source), {}, limits(), noHost);
    const column = (source.split("\n")[1] as string).indexOf(".b") + 1;
    expect(outcome).toMatchObject({ ok: false, failure: { code: "handler_threw", location: { line: 2, column } } });
  });

  it("unbounded recursion ends as a stack-limit failure without killing the worker", async () => {
    const before = pool.stats();
    const outcome = await pool.invoke(
      await handlerSpec(`function f(n: number): number { return f(n + 1) + 1; }\nexport default () => f(0);`),
      {},
      limits(),
      noHost,
    );
    expect(codeOf(outcome)).toBe("sandbox_stack");
    expect(pool.stats().crashes).toBe(before.crashes);
    expect(pool.stats().respawns).toBe(before.respawns);
  });

  it("a long built-in that never polls the interrupt is stopped by timeout_ms, and the pool recovers", async () => {
    const good = await handlerSpec(GOOD);
    for (const source of [
      `export default () => new Array(1e9).join("x").length`,
      `export default () => Array.prototype.indexOf.call({ length: 2 ** 32 - 1 }, 1)`,
    ]) {
      const kills = pool.stats().timeoutKills;
      const started = performance.now();
      const outcome = await pool.invoke(await handlerSpec(source), {}, limits({ timeoutMs: 300 }), noHost);
      expect(codeOf(outcome)).toBe("sandbox_timeout");
      expect(outcome.ok ? "" : outcome.failure.message).toMatch(/timeout 300 ms exceeded/);
      expect(performance.now() - started).toBeLessThan(3000);
      expect(pool.stats().timeoutKills).toBe(kills + 1);
      expect(await pool.invoke(good, { n: 1 }, limits(), noHost)).toMatchObject({ ok: true, value: { doubled: 2 } });
    }
  });

  it("host calls travel to the parent and back; errors arrive as PermissionDenied", async () => {
    const host: HostCallFn = async (name, args) => {
      if (name === "readFile" && args[0] === "allowed.txt") return "contents";
      throw { name: "PermissionDenied", message: `${name}(${String(args[0])}) is not granted`, code: "capability_denied" };
    };
    const spec = await handlerSpec(
      `export default async (e, hook) => {
        const ok = await hook.readFile("allowed.txt");
        try { await hook.readFile("/etc/shadow"); return "leaked"; } catch (err) { return { ok, denied: err instanceof PermissionDenied, message: err.message }; }
      }`,
      { hostFunctions: ["readFile"] },
    );
    expect(await pool.invoke(spec, {}, limits(), host)).toMatchObject({
      ok: true,
      value: { ok: "contents", denied: true, message: "readFile(/etc/shadow) is not granted" },
    });
  });

  it("after 10 hostile invocations, 1,000 good ones all return correct results and nothing leaks", async () => {
    const hostile = [
      [`export default () => { while (true) {} }`, { cpuMs: 30 }],
      [`export default () => { const a: object[] = []; for (;;) a.push({ i: a.length }); }`, { memoryBytes: 16 * MiB }],
      [`export default () => "x".repeat(2 ** 29)`, { memoryBytes: 16 * MiB }],
      [`function f(): number { return f() + 1; }\nexport default () => f();`, {}],
      [`export default () => JSON.parse("[".repeat(1e5))`, {}],
      [`export default () => new Array(1e9).join("x")`, { timeoutMs: 200 }],
      [`export default () => { throw new Error("boom"); }`, {}],
      [`export default () => new Promise(() => {})`, {}],
      [`export default () => ({ s: "x".repeat(1 << 20) })`, {}],
      [`export default () => { for (;;) console.log("spam"); }`, { logBytes: 1024 }],
    ] as const;
    for (const [source, overrides] of hostile) {
      expect(codeOf(await pool.invoke(await handlerSpec(source), {}, limits(overrides), noHost))).not.toBe("ok");
    }
    const good = await handlerSpec(GOOD);
    // 1,000 invocations, 50 in flight at a time (below the queue bound).
    const outcomes: InvocationOutcome[] = [];
    for (let start = 0; start < 1000; start += 50) {
      const batch = Array.from({ length: 50 }, (_, i) => pool.invoke(good, { n: start + i }, limits(), noHost));
      outcomes.push(...(await Promise.all(batch)));
    }
    outcomes.forEach((outcome, n) => expect(outcome).toMatchObject({ ok: true, value: { doubled: n * 2 } }));

    // Live QuickJS objects: one runtime and context per warm slot, none left over from hostile runs.
    for (const stats of await pool.inspect()) {
      expect(stats.runtimes).toBe(stats.contexts);
      expect(stats.runtimes).toBeLessThanOrEqual(stats.slots);
    }
    pool.evict();
    await new Promise((r) => setTimeout(r, 50));
    for (const stats of await pool.inspect()) {
      expect(stats).toMatchObject({ slots: 0, modules: 0, runtimes: 0, contexts: 0 });
    }
  });
});

describe("memory limits hold for the whole process", () => {
  // Each case runs in a fresh worker so its peak RSS (VmHWM) can be compared with its baseline.
  const cases = {
    "a loop pushing 10 KB strings forever": `export default () => { const a: string[] = []; for (;;) a.push("x".repeat(10240) + Math.random()); }`,
    "one huge allocation": `export default () => new Uint8Array(2 ** 30).length`,
    "millions of small objects": `export default () => { const a: object[] = []; for (let i = 0; i < 1e8; i++) a.push({ i }); return a.length; }`,
  };
  for (const [name, source] of Object.entries(cases)) {
    it(`${name}: memory failure, RSS growth < memory_mb + 64 MiB`, async () => {
      const pool = await createPool(1);
      try {
        const [pid] = workerPids(pool);
        if (pid === undefined) throw new Error("no worker");
        const baseline = memoryOf(pid).hwm;
        const outcome = await pool.invoke(await handlerSpec(source), {}, limits({ memoryBytes: 32 * MiB, timeoutMs: 20_000, cpuMs: 20_000 }), noHost);
        expect(codeOf(outcome)).toBe("sandbox_memory");
        const growth = memoryOf(pid).hwm - baseline;
        expect(growth).toBeLessThan((32 + 64) * MiB);
        expect(workerPids(pool)).toEqual([pid]); // contained without killing the worker
      } finally {
        await pool.close();
      }
    });
  }
});

describe("saturation and dead workers", () => {
  it("a full queue is an immediate, explicit error", async () => {
    const pool = await createPool(1, { maxQueue: 2 });
    try {
      const slow: HostCallFn = () => new Promise((resolve) => setTimeout(() => resolve("done"), 400));
      const waiter = await handlerSpec(`export default (e, hook) => hook.readFile("x")`, { hostFunctions: ["readFile"] });
      const running = pool.invoke(waiter, {}, limits(), slow);
      await new Promise((r) => setTimeout(r, 50));
      const queued = [pool.invoke(waiter, {}, limits(), slow), pool.invoke(waiter, {}, limits(), slow)];
      const started = performance.now();
      const refused = await pool.invoke(waiter, {}, limits(), slow);
      expect(performance.now() - started).toBeLessThan(50);
      expect(refused.ok ? "" : refused.failure).toMatchObject({ code: "sandbox_queue_full" });
      expect((await Promise.all([running, ...queued])).map(codeOf)).toEqual(["ok", "ok", "ok"]);
    } finally {
      await pool.close();
    }
  });

  it("a worker killed mid-invocation fails that run as sandbox_crashed and is replaced", async () => {
    const pool = await createPool(1);
    try {
      const [pid] = workerPids(pool);
      const hanging: HostCallFn = () => new Promise(() => undefined);
      const spec = await handlerSpec(`export default (e, hook) => hook.readFile("x")`, { hostFunctions: ["readFile"] });
      const pending = pool.invoke(spec, {}, limits(), hanging);
      await new Promise((r) => setTimeout(r, 100));
      process.kill(pid as number, "SIGKILL");
      const outcome = await pending;
      expect(outcome.ok ? "" : outcome.failure.code).toBe("sandbox_crashed");
      expect(outcome.ok ? "" : outcome.failure.message).toMatch(/SIGKILL/);
      expect(await pool.invoke(await handlerSpec(GOOD), { n: 2 }, limits(), noHost)).toMatchObject({ ok: true, value: { doubled: 4 } });
      expect(workerPids(pool)).not.toContain(pid);
    } finally {
      await pool.close();
    }
  });

  it("a stopped (SIGSTOP) worker times out its invocation and is replaced", async () => {
    const pool = await createPool(1);
    try {
      const [pid] = workerPids(pool);
      process.kill(pid as number, "SIGSTOP");
      const outcome = await pool.invoke(await handlerSpec(GOOD), { n: 1 }, limits({ timeoutMs: 200 }), noHost);
      expect(outcome.ok ? "" : outcome.failure.code).toBe("sandbox_timeout");
      expect(await pool.invoke(await handlerSpec(GOOD), { n: 3 }, limits(), noHost)).toMatchObject({ ok: true, value: { doubled: 6 } });
      expect(workerPids(pool)).not.toContain(pid);
    } finally {
      await pool.close();
    }
  });

  it("close() refuses new work with sandbox_closed and leaves no worker", async () => {
    const pool = await createPool(2);
    const pids = workerPids(pool);
    await pool.close();
    expect(codeOf(await pool.invoke(await handlerSpec(GOOD), { n: 1 }, limits(), noHost))).toBe("sandbox_closed");
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });
});
