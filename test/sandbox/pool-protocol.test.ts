import { afterEach, describe, expect, it } from "vitest";
import { createHandlerSpec, SandboxPool, serveSandboxWorker, type WorkerProcess } from "../../sandbox/index.ts";
import type { FromWorker, ToWorker } from "../../sandbox/worker/protocol.ts";
import { handlerSpec, limits, noHost, releaseWasm } from "../helpers/sandbox.ts";

/**
 * The pool ↔ worker protocol itself, over an in-memory channel to a worker loop running in this
 * process (every frame is recorded): what travels, how often, and what happens when a worker
 * lacks a spec it is named by key.
 */
interface Channel {
  readonly process: WorkerProcess;
  readonly toWorker: ToWorker[];
  readonly fromWorker: FromWorker[];
  /** Both directions, in the order the frames were sent: "→chain", "←done" … */
  readonly timeline: string[];
}

function inMemoryWorker(rewrite: (message: ToWorker) => ToWorker = (m) => m): Channel {
  const toWorker: ToWorker[] = [];
  const fromWorker: FromWorker[] = [];
  const timeline: string[] = [];
  const parentListeners: ((message: unknown) => void)[] = [];
  const workerListeners: ((message: unknown) => void)[] = [];
  // A JSON round trip per frame, as on a real channel: nothing is shared by reference.
  const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
  void serveSandboxWorker(
    {
      onMessage: (listener) => workerListeners.push(listener),
      onClose: () => undefined,
      send: (message) => {
        fromWorker.push(message);
        timeline.push(`←${message.t}`);
        queueMicrotask(() => parentListeners.forEach((l) => l(copy(message))));
      },
    },
    { wasmBytes: releaseWasm() },
  );
  return {
    toWorker,
    fromWorker,
    timeline,
    process: {
      pid: undefined,
      send: (message) => {
        toWorker.push(message);
        timeline.push(`→${message.t}`);
        const sent = copy(rewrite(message));
        queueMicrotask(() => workerListeners.forEach((l) => l(sent)));
      },
      onMessage: (listener) => parentListeners.push(listener),
      onExit: () => undefined,
      stderrTail: () => "",
      kill: () => undefined,
    },
  };
}

const DOUBLE = `export default (e: { n: number }) => ({ doubled: e.n * 2 });`;
const pools: SandboxPool[] = [];

async function poolOn(channel: Channel): Promise<SandboxPool> {
  const pool = new SandboxPool({ spawn: () => channel.process, size: 1 });
  pools.push(pool);
  await pool.ready();
  return pool;
}

afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close(0);
});

describe("the worker protocol", () => {
  it("a chain of one is one frame each way: the outcome rides in done", async () => {
    const channel = inMemoryWorker();
    const pool = await poolOn(channel);
    expect(await pool.invoke(await handlerSpec(DOUBLE), { n: 2 }, limits(), noHost)).toMatchObject({ ok: true, value: { doubled: 4 } });
    expect(channel.toWorker.map((m) => m.t)).toEqual(["chain"]);
    expect(channel.fromWorker.map((m) => m.t)).toEqual(["ready", "done"]);
  });

  it("a spec travels once per worker, then by key; code once per worker, then by hash", async () => {
    const channel = inMemoryWorker();
    const pool = await poolOn(channel);
    const spec = await handlerSpec(DOUBLE);
    const sameCode = await createHandlerSpec({ id: "another-hook", handler: spec.handler }); // another key, the same code
    for (const [s, n] of [
      [spec, 1],
      [spec, 2],
      [sameCode, 3],
    ] as const) {
      expect(await pool.invoke(s, { n }, limits(), noHost)).toMatchObject({ ok: true, value: { doubled: 2 * n } });
    }
    const steps = channel.toWorker.flatMap((m) => (m.t === "chain" ? m.steps : []));
    expect(steps.map((s) => s.key)).toEqual([spec.key, spec.key, sameCode.key]);
    expect(steps[0]?.spec?.handler.code).toBe(spec.handler.code);
    expect(steps[1]?.spec).toBeUndefined();
    expect(steps[2]?.spec?.id).toBe(sameCode.id);
    expect(steps[2]?.spec?.handler.code).toBeUndefined();
  });

  it("a worker that lacks a spec named by key asks for it (need-code) and the chain runs once it has it", async () => {
    // The first send of each spec loses its body on the way: the worker only ever sees the key.
    let stripped = 0;
    const channel = inMemoryWorker((message) => {
      if (message.t !== "chain" || stripped > 0) return message;
      stripped++;
      return { ...message, steps: message.steps.map(({ key, limits: l, tag }) => ({ key, limits: l, tag })) };
    });
    const pool = await poolOn(channel);
    expect(await pool.invoke(await handlerSpec(DOUBLE), { n: 5 }, limits(), noHost)).toMatchObject({ ok: true, value: { doubled: 10 } });
    expect(channel.fromWorker.map((m) => m.t)).toEqual(["ready", "need-code", "done"]);
    const chains = channel.toWorker.filter((m) => m.t === "chain");
    expect(chains).toHaveLength(2);
    expect(chains[1]?.t === "chain" && chains[1].steps[0]?.spec?.handler.code).toBeTruthy();
  });

  it("a busy worker of a pool that cannot grow holds the next chain; both answer, in order", async () => {
    const channel = inMemoryWorker();
    const pool = await poolOn(channel);
    const spec = await handlerSpec(DOUBLE);
    const answers = await Promise.all([1, 2, 3].map((n) => pool.invoke(spec, { n }, limits(), noHost)));
    expect(answers.map((a) => (a.ok ? a.value : a.failure.code))).toEqual([{ doubled: 2 }, { doubled: 4 }, { doubled: 6 }]);
    // Two chains went out before the first done came back (one held beyond the running one), never three.
    expect(channel.timeline).toEqual(["←ready", "→chain", "→chain", "←done", "→chain", "←done", "←done"]);
    expect(pool.stats()).toMatchObject({ queued: 0, crashes: 0 });
  });
});
