import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SandboxPool } from "../../sandbox/index.ts";
import { nodeSandboxHost } from "../../src/platform/node.ts";
import { handlerSpec, limits, noHost } from "../helpers/sandbox.ts";

/**
 * The pool over worker *threads* (emit without a daemon): the same protocol and the same pool,
 * so the same outcomes as with worker processes — here under Node (node:worker_threads); the
 * binary's web Workers are proven end to end in test/e2e/emit-wedge.test.ts.
 */
describe("SandboxPool over worker threads", () => {
  let pool: SandboxPool;
  beforeAll(async () => {
    pool = new SandboxPool({ spawn: () => nodeSandboxHost.spawnThreadWorker(), size: 1, killGraceMs: 100 });
    await pool.ready();
  });
  afterAll(() => pool.close(0));

  it("runs a handler on the thread", async () => {
    const outcome = await pool.invoke(await handlerSpec("export default (e: { a: number }) => ({ twice: e.a * 2 })"), { a: 21 }, limits(), noHost);
    expect(outcome).toMatchObject({ ok: true, value: { twice: 42 } });
    expect(pool.stats().workers[0]?.pid).toBeUndefined();
  });

  it("a guest stuck in a built-in: the thread is given up on at the timeout, a new one takes the next invocation", async () => {
    const wedge = await handlerSpec("export default () => Array.prototype.indexOf.call({ length: 2 ** 32 - 1 }, 1)");
    const stuck = await pool.invoke(wedge, {}, limits({ timeoutMs: 200 }), noHost);
    expect(stuck).toMatchObject({ ok: false, failure: { code: "sandbox_timeout" } });
    expect(pool.stats().timeoutKills).toBe(1);
    const next = await pool.invoke(await handlerSpec("export default () => ({ fine: true })"), {}, limits(), noHost);
    expect(next).toMatchObject({ ok: true, value: { fine: true } });
  });

  it("host calls cross the thread like the pipe", async () => {
    const spec = await handlerSpec("export default async (_e, hook) => ({ got: await hook.env('X') })", { hostFunctions: ["env"] });
    const outcome = await pool.invoke(spec, {}, limits(), async (name, args) => `${name}:${String(args[0])}`);
    expect(outcome).toMatchObject({ ok: true, value: { got: "env:X" } });
  });
});
