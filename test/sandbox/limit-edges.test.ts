import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KiB, MiB, type InvocationOutcome, type SandboxEngine, type SandboxLimits } from "../../sandbox/index.ts";
import { splitEvent } from "../../sandbox/engine/event.ts";
import { QuickJsFactory } from "../../sandbox/engine/quickjs.ts";
import { wasmHeapBase } from "../../sandbox/engine/wasm-layout.ts";
import { createEngine, debugWasm, handlerSpec, limits, noHost, releaseWasm } from "../helpers/sandbox.ts";

// Limits at their edges, as the hostile suite found them (test/security, F4–F6): a limit broken
// while the result is marshalled, QuickJS's several spellings of a stack overflow, what memory_mb
// really lets a handler hold, and CPU spent where the interrupt is polled least.

let engine: SandboxEngine;
beforeAll(async () => {
  engine = await createEngine();
});
afterAll(() => engine.dispose());

async function run(source: string, overrides: Partial<SandboxLimits> = {}, event: unknown = {}): Promise<InvocationOutcome> {
  return engine.invoke(await handlerSpec(source), event, limits(overrides), noHost);
}

function codeOf(outcome: InvocationOutcome): string {
  return outcome.ok ? `ok: ${JSON.stringify(outcome.value)}` : outcome.failure.code;
}

const MEM = { memoryBytes: 16 * MiB, cpuMs: 5000 };
const STACK = { cpuMs: 5000 };

describe("a limit broken while the result is serialized is that limit, not an invalid result", () => {
  it("memory: toJSON allocating forever, and a getter returning 100 MB", async () => {
    const toJson = `export default () => ({ toJSON() { const a: string[] = []; for (;;) a.push("x".repeat(10000) + Math.random()); } })`;
    const getter = `export default () => ({ get reason() { return "x".repeat(1e8); } })`;
    for (const source of [toJson, getter]) {
      const outcome = await run(source, MEM);
      expect(codeOf(outcome), source).toBe("sandbox_memory");
      if (!outcome.ok) expect(outcome.failure.message).toMatch(/memory limit 16 MiB exceeded/);
    }
  });

  it("stack: recursion inside toJSON", async () => {
    expect(codeOf(await run(`function f(): number { return f() + 1; }\nexport default () => ({ toJSON: () => f() });`, STACK))).toBe("sandbox_stack");
  });

  it("a result that is merely not JSON is still handler_result_invalid", async () => {
    expect(codeOf(await run(`export default () => ({ toJSON() { throw new Error("no"); } })`))).toBe("handler_result_invalid");
  });
});

describe('QuickJS\'s "stack overflow", whatever its class, is the stack limit', () => {
  // JSON.parse and the RegExp compiler throw SyntaxError("stack overflow"). Whether QuickJS's own
  // check or the host's stack trips first depends on how far the host JIT has optimised the wasm
  // (a cold worker overflows the host stack, a warm one meets QuickJS's check): every run, on the
  // same warm hook, must say sandbox_stack either way.
  it("JSON.parse of 100,000 brackets and a regex of 100,000 nested groups, three runs each on one hook", async () => {
    for (const source of [
      `export default () => JSON.parse("[".repeat(1e5))`,
      `export default () => new RegExp("(?:".repeat(1e5) + ")".repeat(1e5)).test("")`,
    ]) {
      const spec = await handlerSpec(source);
      for (let i = 0; i < 3; i++) expect(codeOf(await engine.invoke(spec, {}, limits(STACK), noHost)), `${source} #${i}`).toBe("sandbox_stack");
    }
  });

  it("code nested too deeply to parse is the stack limit, not a syntax error, also at the module's top level", async () => {
    const tooDeep = `new Function("return " + "[".repeat(1e5) + "]".repeat(1e5))`;
    expect(codeOf(await run(`export default () => ${tooDeep}();`, STACK))).toBe("sandbox_stack");
    expect(codeOf(await run(`const f = ${tooDeep};\nexport default () => f();`, STACK))).toBe("sandbox_stack");
  });

  it("only the exact message counts: a guest error that merely mentions it is the guest's own", async () => {
    expect(codeOf(await run(`export default () => { throw new RangeError("stack overflow in my parser"); }`))).toBe("handler_threw");
  });
});

describe("memory_mb is what the guest heap may grow to", () => {
  it("the heap starts above static data and the 5 MiB C stack, read from the wasm binary", () => {
    const release = wasmHeapBase(releaseWasm());
    expect(release).toBeGreaterThan(5 * MiB);
    expect(release).toBeLessThan(5.5 * MiB);
    expect(wasmHeapBase(debugWasm())).toBeGreaterThan(5 * MiB);
  });

  it("a module's maximum is that base plus the limit (never below the 16 MiB initial memory)", async () => {
    const factory = await QuickJsFactory.create(releaseWasm());
    const max16 = factory.maximumBytes(16 * MiB);
    expect(max16).toBeGreaterThanOrEqual(factory.heapBaseBytes + 16 * MiB);
    expect(max16 - (factory.heapBaseBytes + 16 * MiB)).toBeLessThan(64 * KiB);
    expect(factory.maximumBytes(1 * MiB)).toBe(16 * MiB);
  });

  it("a handler that hoards 1 MiB blocks and catches the failure holds at most 16 under memory_mb 16", async () => {
    const hoard = `export default () => { const held: Uint8Array[] = []; try { for (;;) held.push(new Uint8Array(1024 * 1024).fill(1)); } catch {} return held.length; }`;
    const outcome = await run(hoard, { memoryBytes: 16 * MiB });
    expect(outcome.ok).toBe(true);
    const held = outcome.ok ? (outcome.value as number) : 0;
    expect(held).toBeGreaterThanOrEqual(14);
    expect(held).toBeLessThanOrEqual(16);
    expect(outcome.stats.heapBytes).toBeLessThanOrEqual(22 * MiB);
  });

  it("growth that Emscripten retries in a smaller step is not exhaustion: 15 MiB fits in 16 without a failure", async () => {
    const fifteen = `export default () => { const held: Uint8Array[] = []; for (let i = 0; i < 15; i++) held.push(new Uint8Array(1024 * 1024).fill(1)); return held.length; }`;
    expect(codeOf(await run(fifteen, { memoryBytes: 16 * MiB }))).toBe("ok: 15");
  });

  it("a 10 MiB Write fits in memory_mb 32 and arrives intact", async () => {
    const content = "line of text\n".repeat(Math.floor((10 * MiB) / 13));
    const event = { tool_name: "Write", tool_input: { file_path: "/p/a.txt", content } };
    const outcome = await run(
      `export default (e: any) => { const t = e.tool_input; return [t.content.length, t.content.slice(0, 13), t.content.indexOf("secret"), t.content.slice(0, 2e6).toUpperCase().length, t.file_path]; }`,
      { memoryBytes: 32 * MiB },
      event,
    );
    expect(outcome).toMatchObject({ ok: true, value: [content.length, "line of text\n", -1, 2e6, "/p/a.txt"] });
  });
});

describe("large strings cross into the guest on their own", () => {
  const big = "y".repeat(100 * KiB);

  it("small events are one JSON text", () => {
    expect(splitEvent({ a: "b" })).toEqual({ json: '{"a":"b"}', large: [] });
  });

  it("each large string leaves a null behind and the path to it, through arrays, odd keys and deep nesting", () => {
    let deep: unknown = big;
    for (let i = 0; i < 2_000; i++) deep = { d: deep };
    const { json, large } = splitEvent({ list: ["s", big], __proto__x: { "a.b": big }, deep });
    const thinned = JSON.parse(json) as { list: unknown[]; __proto__x: unknown };
    expect([thinned.list, thinned.__proto__x]).toEqual([["s", null], { "a.b": null }]);
    expect(large.map((l) => l.path.slice(0, 3))).toEqual(
      expect.arrayContaining([
        ["list", "1"],
        ["__proto__x", "a.b"],
        ["deep", "d", "d"],
      ]),
    );
    expect(large.find((l) => l.path[0] === "deep")?.path).toHaveLength(2_001);
    expect(large.every((l) => l.value === big)).toBe(true);
  });

  it("the guest gets them back in place, a __proto__ key stays a plain property, and a string event stays a string", async () => {
    const echo = `export default (e: any) => typeof e === "string" ? e.length : [e.list[1].length, Object.getPrototypeOf(e.o) === Object.prototype, Object.keys(e.o), e.o["__proto__"].length]`;
    const event = JSON.parse(`{"list":["s",${JSON.stringify(big)}],"o":{"__proto__":${JSON.stringify(big)}}}`);
    expect(await run(echo, {}, event)).toMatchObject({ ok: true, value: [big.length, true, ["__proto__"], big.length] });
    expect(await run(echo, {}, big)).toMatchObject({ ok: true, value: big.length });
  });
});

describe("the CPU limit where the interrupt is polled", () => {
  it("is raised at the stack limit: a handler that catches the overflow and loops there is stopped", async () => {
    const outcome = await run(`function f(): number { try { return f(); } catch { for (;;) {} } }\nexport default () => f();`, { cpuMs: 50 });
    expect(codeOf(outcome)).toBe("sandbox_cpu");
    expect(outcome.stats.cpuMs).toBeLessThan(500);
  });

  it("cannot be caught: once spent, every poll interrupts again, so catch-and-continue ends at once", async () => {
    for (const source of [
      `export default () => { for (;;) { try { while (true) {} } catch {} } }`,
      `function f(d: number): number { try { return f(d + 1); } catch { let i = 0; while (i < 1e4) i++; return f(d + 1); } }\nexport default () => f(0);`,
    ]) {
      const outcome = await run(source, { cpuMs: 50 });
      expect(codeOf(outcome), source).toBe("sandbox_cpu");
      expect(outcome.stats.cpuMs, source).toBeLessThan(500);
    }
  });
});
