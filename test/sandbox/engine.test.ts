import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileHandler, MiB, type SandboxEngine, type InvocationOutcome, type HostCallFn } from "../../sandbox/index.ts";
import { createEngine, handlerSpec, limits, noHost } from "../helpers/sandbox.ts";

let engine: SandboxEngine;
beforeAll(async () => {
  engine = await createEngine();
});
afterAll(() => engine.dispose());

async function run(
  source: string,
  event: unknown = {},
  overrides = {},
  host: HostCallFn = noHost,
  hostFunctions: string[] = [],
): Promise<InvocationOutcome> {
  return engine.invoke(await handlerSpec(source, { hostFunctions }), event, limits(overrides), host);
}

function failureOf(outcome: InvocationOutcome): { code: string; message: string; guestStack?: string } {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  return outcome.failure;
}

describe("handlers", () => {
  it("runs a TypeScript handler with annotations, an interface and an async function", async () => {
    const outcome = await run(
      `interface ToolEvent { tool_name: string; tool_input: { file_path?: string } }
       type Verdict = { action: "deny" | "continue"; reason?: string };
       enum Level { Low, High }
       async function check(path: string): Promise<boolean> { return path.endsWith(".env"); }
       export default async function handler(event: ToolEvent, hook: unknown): Promise<Verdict> {
         const level: Level = Level.High;
         if (await check(event.tool_input.file_path ?? "")) return { action: "deny", reason: \`secret file (level \${level})\` };
         return { action: "continue" };
       }`,
      { tool_name: "Write", tool_input: { file_path: "/p/.env" } },
    );
    expect(outcome).toMatchObject({ ok: true, value: { action: "deny", reason: "secret file (level 1)" } });
  });

  it("returning nothing yields undefined (continue)", async () => {
    expect(await run(`export default function () {}`)).toMatchObject({ ok: true, value: undefined });
  });

  it("reports a TypeScript syntax error at file:line:col of the source", async () => {
    const compiled = await compileHandler(
      `export default function (e: any) {\n  const x: number = 1;\n  return { a: x +  };\n}`,
      "/hooks/bad/handler.ts",
    );
    expect(compiled.ok).toBe(false);
    if (compiled.ok) return;
    expect(compiled.failure.code).toBe("handler_syntax");
    expect(compiled.failure.location).toEqual({ file: "/hooks/bad/handler.ts", line: 3, column: 20 });
    expect(compiled.failure.message).toContain("/hooks/bad/handler.ts:3:20");
  });

  it("reports a runtime error with the guest stack pointing at the TypeScript line", async () => {
    const failure = failureOf(await run(`type T = { a?: { b: number } };\nexport default function (e: T): number {\n  return e.a!.b;\n}`));
    expect(failure.code).toBe("handler_threw");
    expect(failure.message).toContain("TypeError");
    expect(failure.guestStack).toMatch(/handler\.ts:3:\d+/);
  });

  it("reports where a handler threw in TypeScript coordinates: the line and the column, though types were removed before it", async () => {
    // The template literal first: sucrase's own source maps lose their place after one.
    const source = `// line 1\nexport default function handler(event: { a?: unknown }, hook: unknown): { action: string } {\n  const note: string = \`\${String(event.a)} and \${String(hook)}\`;\n  void note;\n  const list: string[] = [];\n  if (!event.a) {\n    const n: number = (null as unknown as { x: { y: number } }).x.y;\n    return { action: String(n) };\n  }\n  return { action: "continue" };\n}\n`;
    const failure = failureOf(await run(source)) as { location?: unknown; guestStack?: string };
    const column = (source.split("\n")[6] as string).indexOf(".x.y") + 1;
    // QuickJS points at the property read; in the JavaScript (types gone) that column is 34 places earlier.
    expect(failure.location).toEqual({ file: expect.stringMatching(/handler\.ts$/), line: 7, column });
    expect(failure.guestStack).toContain(`handler.ts:7:${column})`);
  });

  it("refuses imports at compile time, with the line of the import; type-only imports are fine", async () => {
    const compiled = await compileHandler(`// a hook\nimport fs from "node:fs";\nexport default () => fs;`, "/hooks/x/handler.ts");
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) {
      expect(compiled.failure).toMatchObject({ code: "handler_invalid", location: { file: "/hooks/x/handler.ts", line: 2, column: 1 } });
      expect(compiled.failure.message).toMatch(/"node:fs" cannot be imported/);
    }
    expect((await compileHandler(`import type { X } from "./types";\nexport default (x: X) => x;`, "/h.ts")).ok).toBe(true);
    // A dynamic import is a runtime error inside the sandbox: there is no module loader.
    expect(failureOf(await run(`export default async () => { await import("node:fs"); }`)).code).toBe("handler_threw");
  });

  it("requires a default export function", async () => {
    expect(failureOf(await run(`export const handler = () => 1;`)).code).toBe("handler_invalid");
  });

  it("fails a handler whose promise can never settle", async () => {
    expect(failureOf(await run(`export default () => new Promise(() => {})`)).code).toBe("handler_hung");
  });

  it("refuses a result that is not JSON", async () => {
    expect(failureOf(await run(`export default () => { const a: any = {}; a.self = a; return a; }`)).code).toBe("handler_result_invalid");
    expect(failureOf(await run(`export default () => ({ n: 10n })`)).code).toBe("handler_result_invalid");
  });
});

describe("limits, each with its own code and a message naming the limit", () => {
  it("cpu", async () => {
    const failure = failureOf(await run(`export default () => { while (true) {} }`, {}, { cpuMs: 30 }));
    expect(failure).toMatchObject({ code: "sandbox_cpu", limit: { name: "cpuMs", value: 30 } });
    expect(failure.message).toMatch(/cpu limit 30 ms exceeded/);
  });

  it("cpu at the top level of the module", async () => {
    expect(failureOf(await run(`while (true) {}\nexport default () => 1;`, {}, { cpuMs: 30 })).code).toBe("sandbox_cpu");
  });

  it("cpu inside promise jobs, a microtask storm and a catastrophic regex", async () => {
    for (const source of [
      `export default async () => { await null; while (true) {} }`,
      `export default () => { const f = (): Promise<void> => Promise.resolve().then(f); f(); return new Promise(() => {}); }`,
      `export default () => /(a+)+$/.test("a".repeat(40) + "!")`,
      `export default async () => { for (;;) { try { await (async () => { while (true) {} })(); } catch {} } }`,
    ]) {
      expect(failureOf(await run(source, {}, { cpuMs: 40 })).code).toBe("sandbox_cpu");
    }
  });

  it("cpu spent in a getter while the result is serialized", async () => {
    expect(failureOf(await run(`export default () => ({ get x() { while (true) {} } })`, {}, { cpuMs: 30 })).code).toBe("sandbox_cpu");
  });

  it("memory: one huge allocation, many strings, many small objects, typed arrays", async () => {
    for (const source of [
      `export default () => "x".repeat(2 ** 29).length`,
      `export default () => { const a: string[] = []; for (;;) a.push("x".repeat(10240) + Math.random()); }`,
      `export default () => { const a: object[] = []; for (;;) a.push({ i: a.length }); }`,
      `export default () => { const a: Uint8Array[] = []; for (;;) a.push(new Uint8Array(512 * 1024)); }`,
      `export default () => JSON.parse("[" + "{},".repeat(3e6) + "{}]").length`,
    ]) {
      const failure = failureOf(await run(source, {}, { memoryBytes: 16 * MiB }));
      expect(failure.code, source).toBe("sandbox_memory");
      expect(failure.message).toMatch(/memory limit 16 MiB exceeded/);
    }
  });

  it("a handler cannot swallow the memory limit and keep going", async () => {
    // Once the heap could not grow, the next interrupt poll ends the run. A handler that catches
    // the refused allocation and returns at once completes, within its cap (limit-edges.test.ts).
    const failure = failureOf(
      await run(
        `export default () => { const a: object[] = []; try { for (;;) a.push({ i: a.length }); } catch { a.length = 0; } let n = 0; for (let i = 0; i < 1e5; i++) n += i; return "survived " + n; }`,
        {},
        { memoryBytes: 16 * MiB },
      ),
    );
    expect(failure.code).toBe("sandbox_memory");
  });

  it("stack: unbounded recursion, and deep nesting that overflows the host stack first", async () => {
    expect(failureOf(await run(`function f(): number { return f() + 1; }\nexport default () => f();`)).code).toBe("sandbox_stack");
    expect(
      failureOf(await run(`export default () => { let o: any = {}; for (let i = 0; i < 1e5; i++) o = { o }; return JSON.stringify(o).length; }`))
        .code,
    ).toBe("sandbox_stack");
    expect(failureOf(await run(`export default () => JSON.parse("[".repeat(1e5))`)).code).toBe("sandbox_stack");
    // The engine recovers: the poisoned module was replaced.
    expect(await run(`export default () => 42`)).toMatchObject({ ok: true, value: 42 });
  });

  it("result size", async () => {
    const failure = failureOf(await run(`export default () => ({ s: "x".repeat(300_000) })`, {}, { resultBytes: 256 * 1024 }));
    expect(failure.code).toBe("sandbox_result_size");
    expect(failure.message).toMatch(/result limit 256 KiB exceeded/);
  });

  it("log size", async () => {
    const failure = failureOf(await run(`export default () => { for (;;) console.log("x".repeat(1000)); }`, {}, { logBytes: 8 * 1024 }));
    expect(failure.code).toBe("sandbox_log_size");
  });

  it("host calls", async () => {
    const host: HostCallFn = async () => "ok";
    const failure = failureOf(
      await run(`export default async (e, hook) => { for (;;) await hook.readFile("x"); }`, {}, { hostCalls: 5 }, host, ["readFile"]),
    );
    expect(failure.code).toBe("sandbox_host_calls");
  });

  it("wall clock, host calls included", async () => {
    const slow: HostCallFn = () => new Promise((resolve) => setTimeout(() => resolve("late"), 2000));
    const started = performance.now();
    const failure = failureOf(await run(`export default async (e, hook) => hook.readFile("x")`, {}, { timeoutMs: 150 }, slow, ["readFile"]));
    expect(failure.code).toBe("sandbox_timeout");
    expect(performance.now() - started).toBeLessThan(1500);
  });
});

describe("the hook object and host calls", () => {
  it("marshals arguments and results as JSON and logs console output", async () => {
    const seen: unknown[] = [];
    const host: HostCallFn = async (name, args) => {
      seen.push([name, args]);
      return { name, echo: args };
    };
    const outcome = await run(
      `export default async (e, hook) => { console.log("checking", { n: 1 }); hook.log("warn", "careful"); return hook.http.get("http://x", { a: [1, 2] }); }`,
      {},
      {},
      host,
      ["http.get"],
    );
    expect(outcome).toMatchObject({ ok: true, value: { name: "http.get", echo: ["http://x", { a: [1, 2] }] } });
    expect(outcome.logs).toEqual([
      { level: "info", message: 'checking {"n":1}' },
      { level: "warn", message: "careful" },
    ]);
    expect(seen).toEqual([["http.get", ["http://x", { a: [1, 2] }]]]);
  });

  it("a denied capability throws a catchable PermissionDenied with the host's message and code", async () => {
    const outcome = await run(
      `export default async (e, hook) => { try { await hook.readFile("/etc/passwd"); } catch (err) { return { name: err.name, isClass: err instanceof PermissionDenied, code: err.code, message: err.message }; } }`,
      {},
      {},
      () =>
        Promise.reject({
          name: "PermissionDenied",
          message: "hook x: readFile(/etc/passwd) not granted",
          code: "capability_denied",
          stack: "host secrets",
        }),
      ["readFile"],
    );
    expect(outcome).toMatchObject({
      ok: true,
      value: { name: "PermissionDenied", isClass: true, code: "capability_denied", message: "hook x: readFile(/etc/passwd) not granted" },
    });
  });

  it("exposes plain data on the hook object, frozen", async () => {
    const spec = await handlerSpec(
      `export default (e, hook) => { try { hook.config.limit = 9; } catch {} return [hook.id, hook.config.limit, Object.isFrozen(hook)]; }`,
      {
        hookData: { id: "guard", config: { limit: 3 } },
      },
    );
    expect(await engine.invoke(spec, {}, limits(), noHost)).toMatchObject({ ok: true, value: ["guard", 3, true] });
  });

  it("a host call still pending when the handler returns is dropped, aborted, and does not leak into the next run", async () => {
    let aborted = false;
    const host: HostCallFn = (name, args, signal) =>
      new Promise((resolve) => {
        signal.addEventListener("abort", () => {
          aborted = true;
        });
        setTimeout(() => resolve("late"), 100);
      });
    const spec = await handlerSpec(`let n = 0;\nexport default (e, hook) => { hook.readFile("x"); return ++n; }`, { hostFunctions: ["readFile"] });
    expect(await engine.invoke(spec, {}, limits(), host)).toMatchObject({ ok: true, value: 1 });
    expect(aborted).toBe(true);
    await new Promise((r) => setTimeout(r, 150));
    // The context with an abandoned call was discarded: a fresh one starts counting again.
    const next = await engine.invoke(spec, {}, limits(), host);
    expect(next).toMatchObject({ ok: true, value: 1, stats: { coldStart: true } });
  });
});

describe("isolation", () => {
  it("a probe finds no host object", async () => {
    const outcome = await run(`export default (e, hook) => {
      const names = ["process", "require", "module", "exports", "Bun", "Deno", "fetch", "setTimeout", "setInterval",
        "setImmediate", "XMLHttpRequest", "WebAssembly", "Buffer", "global", "hostCall", "emitLog", "std", "os", "__filename"];
      const found = names.filter((n) => typeof (globalThis as any)[n] !== "undefined");
      let dynamicImport = "refused";
      try { (0, eval)("import('node:fs')"); } catch { dynamicImport = "threw"; }
      return { found, hookKeys: Object.keys(hook), globals: Object.getOwnPropertyNames(globalThis).filter((n) => /^[a-z_$]/.test(n)).sort() };
    }`);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const value = outcome.value as { found: string[]; hookKeys: string[]; globals: string[] };
    expect(value.found).toEqual([]);
    expect(value.hookKeys).toEqual(["log"]);
    expect(value.globals).toEqual(
      [
        "console",
        "decodeURI",
        "decodeURIComponent",
        "encodeURI",
        "encodeURIComponent",
        "escape",
        "eval",
        "globalThis",
        "isFinite",
        "isNaN",
        "parseFloat",
        "parseInt",
        "undefined",
        "unescape",
      ].sort(),
    );
  });

  it("two hooks cannot see each other's globals or prototype changes", async () => {
    const writer = await handlerSpec(
      `export default () => { (globalThis as any).shared = "secret"; (Object.prototype as any).polluted = true; (Array.prototype as any).push = () => 0; return "wrote"; }`,
    );
    const reader = await handlerSpec(`export default () => [typeof (globalThis as any).shared, ({} as any).polluted, [1].push(2)]`);
    expect(await engine.invoke(writer, {}, limits(), noHost)).toMatchObject({ ok: true, value: "wrote" });
    expect(await engine.invoke(reader, {}, limits(), noHost)).toMatchObject({ ok: true, value: ["undefined", null, 2] });
  });

  it("a warm hook keeps its own globals; a fresh hook starts clean every time", async () => {
    const source = `let count = 0;\nexport default () => ++count;`;
    const warm = await handlerSpec(source, { isolation: "warm" });
    const fresh = await handlerSpec(source, { isolation: "fresh" });
    for (const expected of [1, 2]) expect(await engine.invoke(warm, {}, limits(), noHost)).toMatchObject({ value: expected });
    for (let i = 0; i < 2; i++) expect(await engine.invoke(fresh, {}, limits(), noHost)).toMatchObject({ value: 1 });
  });

  it("a result cannot pollute host prototypes", async () => {
    const outcome = await run(`export default () => JSON.parse('{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}}')`);
    expect(outcome.ok).toBe(true);
    const value = outcome.ok ? (outcome.value as Record<string, unknown>) : {};
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(value, "__proto__")).toBe(true);
  });

  it("guest errors are truncated and stripped of control characters", async () => {
    const failure = failureOf(await run(`export default () => { throw new Error("line1\\u001b[31m\\nline2" + "x".repeat(10000)); }`));
    expect(failure.message).not.toMatch(/[\u0000-\u001f]/);
    expect(failure.message.length).toBeLessThan(2300);
  });
});
