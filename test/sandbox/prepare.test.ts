import { describe, expect, it } from "vitest";
import { SandboxEngine, SandboxPool } from "../../sandbox/index.ts";
import { nodeSandboxHost } from "../../src/platform/node.ts";
import { handlerSpec, limits, noHost, releaseWasm } from "../helpers/sandbox.ts";

// A guest built ahead of any event (a daemon warming a project): the first event then runs warm,
// with the answer a guest built by that event would give, and nothing of the hook acts before it.

const COUNTER = `let calls = 0;\nexport default (e: { n: number }) => ({ n: e.n, calls: ++calls })`;

describe("SandboxEngine.prepare", () => {
  it("builds the guest without calling the handler: the first event finds it warm and answers as a fresh one", async () => {
    const engine = await SandboxEngine.create({ wasmBytes: releaseWasm() });
    const fresh = await SandboxEngine.create({ wasmBytes: releaseWasm() });
    try {
      const spec = await handlerSpec(COUNTER);
      const prepared = await engine.prepare(spec, limits());
      expect(prepared).toMatchObject({ ok: true, value: undefined, stats: { coldStart: true, hostCalls: 0 } });
      const first = await engine.invoke(spec, { n: 7 }, limits(), noHost);
      // The handler had not run: its module state is what a fresh guest's is.
      expect(first).toMatchObject({ ok: true, value: { n: 7, calls: 1 }, stats: { coldStart: false } });
      const unprepared = await fresh.invoke(spec, { n: 7 }, limits(), noHost);
      expect(unprepared).toMatchObject({ ok: true, value: { n: 7, calls: 1 }, stats: { coldStart: true } });
      // Preparing a warm guest again leaves it as it is.
      expect(await engine.prepare(spec, limits())).toMatchObject({ ok: true, stats: { coldStart: false } });
      expect(await engine.invoke(spec, { n: 8 }, limits(), noHost)).toMatchObject({ value: { n: 8, calls: 2 } });
    } finally {
      engine.dispose();
      fresh.dispose();
    }
  });

  it("keeps no guest whose top level left work pending: its first event builds it, as without the warm-up", async () => {
    const engine = await SandboxEngine.create({ wasmBytes: releaseWasm() });
    try {
      const pending = await handlerSpec(`let later = 0;\nPromise.resolve().then(() => { later = 1; });\nexport default () => ({ later });`);
      const prepared = await engine.prepare(pending, limits());
      expect(prepared.ok).toBe(true);
      const first = await engine.invoke(pending, {}, limits(), noHost);
      expect(first.ok).toBe(true);
      // Whatever QuickJS did with the job, the answer is the one a guest built by the event gives.
      const fresh = await SandboxEngine.create({ wasmBytes: releaseWasm() });
      const expected = await fresh.invoke(pending, {}, limits(), noHost);
      expect(expected.ok && first.ok && first.value).toEqual(expected.ok && expected.value);
      fresh.dispose();
    } finally {
      engine.dispose();
    }
  });

  it("fails a hook that cannot load as its first event would, and keeps nothing of it", async () => {
    const engine = await SandboxEngine.create({ wasmBytes: releaseWasm() });
    try {
      const broken = await handlerSpec(`export default () => 1;\nthrow new Error("top level")`);
      const prepared = await engine.prepare(broken, limits());
      expect(prepared).toMatchObject({ ok: false, failure: { code: "handler_threw" } });
      const loop = await handlerSpec(`for (;;) {}\nexport default () => 1;`);
      expect(await engine.prepare(loop, limits({ cpuMs: 30, timeoutMs: 200 }))).toMatchObject({ ok: false, failure: { code: "sandbox_cpu" } });
      expect(engine.stats()).toMatchObject({ contexts: 0, runtimes: 0 });
    } finally {
      engine.dispose();
    }
  });
});

describe("SandboxPool.prepare and hold", () => {
  it("builds guests in a worker ahead of the first chain, which then runs warm; a held worker outlives idleMs", async () => {
    const pool = new SandboxPool({ spawn: () => nodeSandboxHost.spawnWorker(), minWorkers: 0, maxWorkers: 2, startWorkers: 1, idleMs: 200 });
    try {
      await pool.ready();
      const a = await handlerSpec(COUNTER, { id: "a" });
      const b = await handlerSpec(`export default (e: { n: number }) => (e.n > 1 ? { action: "deny" } : undefined)`, { id: "b" });
      // Held first: on a loaded machine the 200 ms idle time could pass between the two calls.
      pool.hold(1);
      const prepared = await pool.prepare([
        { spec: a, limits: limits() },
        { spec: b, limits: limits() },
      ]);
      expect(prepared.outcomes.map((o) => o.ok)).toEqual([true, true]);
      expect(pool.stats().invocations).toBe(0);
      await new Promise((r) => setTimeout(r, 600));
      expect(pool.stats()).toMatchObject({ size: 1, reaped: 0 });
      const chain = await pool.invokeChain(
        [a, b].map((spec) => ({ spec, limits: limits(), call: noHost, tag: undefined })),
        { n: 1 },
      );
      expect(chain.outcomes.map((o) => [o.ok, o.stats.coldStart])).toEqual([
        [true, false],
        [true, false],
      ]);
      expect(chain.outcomes[0]).toMatchObject({ value: { n: 1, calls: 1 } });
      // Released: the idle worker goes after idleMs like any above minWorkers.
      pool.hold(0);
      const deadline = performance.now() + 10_000;
      while (pool.stats().size > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(pool.stats()).toMatchObject({ size: 0, reaped: 1 });
    } finally {
      await pool.close();
    }
  });

  it("starts no worker for a prepare while one is alive: an event arriving meanwhile waits for the warming worker", async () => {
    const pool = new SandboxPool({ spawn: () => nodeSandboxHost.spawnWorker(), minWorkers: 0, maxWorkers: 2, startWorkers: 1, idleMs: 60_000 });
    try {
      await pool.ready();
      const slowTop = await handlerSpec(`const t = Date.now();\nwhile (Date.now() - t < 300) {}\nexport default () => ({ ok: 1 });`, {
        id: "slow-top",
      });
      const quick = await handlerSpec(`export default () => ({ quick: 1 })`, { id: "quick" });
      const warming = pool.prepare([{ spec: slowTop, limits: limits({ cpuMs: 2000, timeoutMs: 5000 }) }]);
      await new Promise((r) => setTimeout(r, 50));
      const event = await pool.invoke(quick, {}, limits(), noHost);
      expect(event).toMatchObject({ ok: true, value: { quick: 1 } });
      expect((await warming).outcomes[0]?.ok).toBe(true);
      expect(pool.stats()).toMatchObject({ size: 1, grown: 0 });
    } finally {
      await pool.close();
    }
  });
});
