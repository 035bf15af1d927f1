import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MiB, type HostCallFn, type SandboxPool } from "../../sandbox/index.ts";
import { hostResultBudget, jsonLength, MAX_HOST_RESULT_CHARS } from "../../sandbox/pool/host-result.ts";
import { createPool, handlerSpec, limits } from "../helpers/sandbox.ts";

describe("jsonLength: the size of JSON.stringify without building it", () => {
  const cases: unknown[] = [
    null,
    true,
    false,
    0,
    -1.5e-7,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    "",
    'quote " backslash \\ slash /',
    "\u0000\u0001\b\t\n\f\r\u001f",
    "héllo € 𝄞",
    "lone \ud800 high, lone \udc00 low, pair \ud834\udd1e",
    [],
    [1, undefined, () => 1, Symbol("s"), null, "x"],
    {},
    { a: 1, b: undefined, c: () => 1, 'k"ey': [{ d: "e" }], "": "", [Symbol("s")]: 1 },
    { skipped: undefined, kept: 1 },
    { first: undefined },
    new Date(0),
    { nested: { toJSON: (key: string) => `key:${key}` } },
    new Uint8Array([1, 2, 3]),
    { text: "x".repeat(10_000), list: Array.from({ length: 100 }, (_, i) => ({ i, s: String(i) })) },
  ];
  for (const value of cases) {
    it(`${String(JSON.stringify(value)).slice(0, 60)}`, () => {
      expect(jsonLength(value, Number.POSITIVE_INFINITY)).toBe(JSON.stringify(value)?.length ?? 0);
    });
  }

  it("stops counting past the limit (a 16 MiB string is not scanned)", () => {
    const huge = "\u0000".repeat(16 * MiB);
    const started = performance.now();
    expect(jsonLength({ text: huge }, 1 * MiB)).toBeGreaterThan(1 * MiB);
    expect(performance.now() - started).toBeLessThan(50);
    expect(jsonLength(huge, 200 * MiB)).toBe(6 * 16 * MiB + 2);
  });

  it("throws like JSON.stringify on a cycle or a BigInt", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => jsonLength(cyclic, 1e9)).toThrow(TypeError);
    expect(() => jsonLength({ n: 1n }, 1e9)).toThrow(TypeError);
    // The same object twice (not a cycle) is fine.
    const shared = { a: 1 };
    expect(jsonLength([shared, shared], 1e9)).toBe(JSON.stringify([shared, shared]).length);
  });

  it("the budget is a sixth of the memory limit, capped", () => {
    expect(hostResultBudget(limits({ memoryBytes: 32 * MiB }))).toBe(Math.floor((32 * MiB) / 6));
    expect(hostResultBudget(limits({ memoryBytes: 512 * MiB }))).toBe(MAX_HOST_RESULT_CHARS);
  });
});

describe("an oversized host result (finding F3)", () => {
  let pool: SandboxPool;
  beforeAll(async () => {
    pool = await createPool(1);
  });
  afterAll(() => pool.close());

  it("fails the call with a catchable result_too_large naming size and limit; the worker lives on", async () => {
    // 16 MiB of NUL bytes: 96 MiB of JSON. It never reaches the worker's pipe.
    const nuls = "\u0000".repeat(16 * MiB);
    const host: HostCallFn = async (name, args) => (args[0] === "small" ? "ok" : nuls);
    const spec = await handlerSpec(
      `export default async (e: unknown, hook: any) => {
        const small = await hook.readFile("small");
        try { const text = await hook.readFile("nuls"); return { length: text.length }; }
        catch (err: any) { return { small, name: err.name, code: err.code, message: err.message }; }
      }`,
      { hostFunctions: ["readFile"] },
    );
    const before = pool.stats();
    const started = performance.now();
    const outcome = await pool.invoke(spec, {}, limits({ memoryBytes: 32 * MiB, timeoutMs: 5000 }), host);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(outcome).toMatchObject({
      ok: true,
      value: {
        small: "ok",
        name: "HookboxError",
        code: "result_too_large",
        message: expect.stringMatching(
          /^hook\.readFile\(\) returned 96\.0 MiB as JSON, over the 5\.3 MiB .* memory limit \(32 MiB\); .*limits\.memory_mb/,
        ),
      },
    });
    expect(pool.stats()).toMatchObject({ timeoutKills: before.timeoutKills, crashes: before.crashes });
  });

  it("a result within the budget arrives whole; a host result that is not JSON fails the call, not the invocation", async () => {
    const text = "y".repeat(4 * MiB);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const host: HostCallFn = async (name) => (name === "readFile" ? text : cyclic);
    const spec = await handlerSpec(
      `export default async (e: unknown, hook: any) => {
        const text = await hook.readFile("big");
        try { await hook.fetch("cyclic"); return "no error"; } catch (err: any) { return { length: text.length, error: err.message }; }
      }`,
      { hostFunctions: ["readFile", "fetch"] },
    );
    expect(await pool.invoke(spec, {}, limits({ memoryBytes: 64 * MiB }), host)).toMatchObject({
      ok: true,
      value: { length: 4 * MiB, error: expect.stringMatching(/cyclic/) },
    });
  });
});
