import { describe, expect, it } from "vitest";
import type { WorkerProcess } from "../../sandbox/index.ts";
import { createExecutor, resolveExecutorOptions, startWorker, type ExecutorOptions } from "../../src/decide/executor.ts";
import { nodeSandboxHost } from "../../src/platform/node.ts";
import { handlerSpec, limits, noHost } from "../helpers/sandbox.ts";

/** A worker that never gets ready, recording what is done to it. */
function fakeWorker(log: string[], name: string): WorkerProcess {
  const exits: Parameters<WorkerProcess["onExit"]>[0][] = [];
  return {
    pid: undefined,
    send: () => undefined,
    onMessage: () => undefined,
    onExit: (listener) => void exits.push(listener),
    stderrTail: () => "",
    kill: () => {
      log.push(`kill ${name}`);
      for (const exit of exits.splice(0)) exit({ code: null, signal: "SIGKILL" });
    },
  };
}

/** A sandbox host whose spawns are recorded by kind. */
function fakeSandbox(log: string[]): ExecutorOptions["sandbox"] {
  let n = 0;
  return {
    spawnWorker: (options) => {
      const name = `${options?.oneShot ? "one-shot" : "process"}#${++n}`;
      log.push(`spawn ${name}`);
      return fakeWorker(log, name);
    },
    spawnThreadWorker: () => {
      const name = `thread#${++n}`;
      log.push(`spawn ${name}`);
      return fakeWorker(log, name);
    },
  };
}

describe("the one executor constructor: options resolved once", () => {
  it("a fixed count starts all its workers; a range starts its fewest, and one even when that is none", () => {
    expect(resolveExecutorOptions({ workers: 2 })).toEqual({
      kind: "process",
      minWorkers: 2,
      maxWorkers: 2,
      startWorkers: 2,
      idleMs: undefined,
      lazy: false,
    });
    expect(resolveExecutorOptions({ workers: { min: 0, max: 4, idleMs: 60_000 } })).toMatchObject({ minWorkers: 0, maxWorkers: 4, startWorkers: 1 });
    expect(resolveExecutorOptions({ workers: { min: 2, max: 4, idleMs: 0 } })).toMatchObject({ startWorkers: 2, idleMs: 0 });
    expect(resolveExecutorOptions({})).toMatchObject({ kind: "process", minWorkers: 1, maxWorkers: 1 });
    expect(resolveExecutorOptions({ kind: "one-shot", lazy: true })).toMatchObject({ kind: "one-shot", lazy: true, startWorkers: 1 });
  });

  it.each([
    [{ workers: 0 }, /integer ≥ 1, got 0/],
    [{ workers: 1.5 }, /integer ≥ 1, got 1.5/],
    [{ workers: { min: 3, max: 2, idleMs: 0 } }, /fewest workers must be an integer from 0 to 2, got 3/],
    [{ workers: { min: 0, max: 0, idleMs: 0 } }, /most workers must be an integer ≥ 1, got 0/],
    [{ workers: { min: 0, max: 2, idleMs: -1 } }, /idleMs must be a number ≥ 0/],
    [{ workers: { min: 0, max: 2, idleMs: 1000 }, lazy: true }, /cannot also wait for work/],
    [{ workers: 2, kind: "thread" }, /a thread worker serves one evaluation of this process: it is never pooled/],
    [{ workers: { min: 1, max: 1, idleMs: 0 }, kind: "one-shot" }, /a one-shot worker .* never pooled/],
  ] as const)("refuses %j", (options, message) => {
    expect(() => resolveExecutorOptions(options)).toThrow(message);
  });

  it("an impossible combination starts nothing, and the worker already starting is killed, not leaked", async () => {
    const log: string[] = [];
    const sandbox = fakeSandbox(log);
    const prestarted = startWorker(sandbox, "thread");
    await expect(createExecutor({ sandbox, kind: "thread", workers: 2, ...(prestarted ? { prestarted } : {}) })).rejects.toMatchObject({
      code: "internal",
    });
    expect(log).toEqual(["spawn thread#1", "kill thread#1"]);
  });

  it("a pool takes the worker already starting first, then spawns its kind", async () => {
    const log: string[] = [];
    const sandbox = fakeSandbox(log);
    const prestarted = startWorker(sandbox, "process");
    const executor = await createExecutor({ sandbox, workers: 3, ...(prestarted ? { prestarted } : {}) });
    expect(log).toEqual(["spawn process#1", "spawn process#2", "spawn process#3"]);
    await executor.close(0);
    expect(log.filter((line) => line.startsWith("kill")).sort()).toEqual(["kill process#1", "kill process#2", "kill process#3"]);
  });

  it("a lazy executor starts no worker before work arrives, and kills the unclaimed one at close", async () => {
    const log: string[] = [];
    const sandbox = fakeSandbox(log);
    const prestarted = startWorker(sandbox, "one-shot");
    const executor = await createExecutor({ sandbox, kind: "one-shot", lazy: true, ...(prestarted ? { prestarted } : {}) });
    await executor.ready();
    expect(executor.stats()).toMatchObject({ size: 0, invocations: 0 });
    expect(log).toEqual(["spawn one-shot#1"]);
    await executor.close(0);
    expect(log).toEqual(["spawn one-shot#1", "kill one-shot#1"]);
    await expect(executor.invokeChain([], {})).rejects.toThrow(/used after close/);
  });

  it("a lazy executor of real one-shot workers runs its first chain on the worker started early", async () => {
    const prestarted = startWorker(nodeSandboxHost, "one-shot") as WorkerProcess;
    const executor = await createExecutor({ sandbox: nodeSandboxHost, kind: "one-shot", lazy: true, prestarted });
    try {
      const add = await handlerSpec("export default (e: { n: number }) => ({ n: e.n + 1 });");
      expect(await executor.invoke(add, { n: 41 }, limits(), noHost)).toMatchObject({ ok: true, value: { n: 42 } });
      expect(await executor.invoke(add, { n: 1 }, limits(), noHost)).toMatchObject({ ok: true, value: { n: 2 } });
      expect(executor.stats()).toMatchObject({ minWorkers: 1, maxWorkers: 1, invocations: 2, respawns: 0 });
      expect(executor.stats().workers.map((worker) => worker.pid)).toEqual([prestarted.pid]);
    } finally {
      await executor.close(0);
    }
  });
});
