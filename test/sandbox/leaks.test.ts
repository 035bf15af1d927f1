import { describe, expect, it } from "vitest";
import debugVariantImport from "@jitl/quickjs-wasmfile-debug-sync";
import { MiB, SandboxEngine, type HostCallFn } from "../../sandbox/index.ts";
import { debugWasm, handlerSpec, limits, noHost } from "../helpers/sandbox.ts";

// The debug build of QuickJS carries LeakSanitizer: after a hook's context is disposed, its
// module must hold no allocation at all. Hostile runs here are the ones an in-process engine
// contains by itself (the long built-ins need the pool's kill and are covered there).
const debugVariant = ((debugVariantImport as { default?: unknown }).default ?? debugVariantImport) as never;

describe("no QuickJS allocation survives a hook (LeakSanitizer, debug build)", () => {
  it("after hostile runs and 1,000 good ones, every module is clean", async () => {
    const engine = await SandboxEngine.create({ wasmBytes: debugWasm(), variant: debugVariant, heapHeadroomBytes: 256 * MiB });
    const slowHost: HostCallFn = () => new Promise((resolve) => setTimeout(() => resolve("late"), 50));
    const hostile: [string, object, HostCallFn, string[]][] = [
      [`export default () => { while (true) {} }`, { cpuMs: 30 }, noHost, []],
      [`export default () => ({ get x() { while (true) {} } })`, { cpuMs: 30 }, noHost, []],
      [
        `export default () => { const f = (): Promise<void> => Promise.resolve().then(f); f(); return new Promise(() => {}); }`,
        { cpuMs: 30 },
        noHost,
        [],
      ],
      [`function f(): number { return f() + 1; }\nexport default () => f();`, {}, noHost, []],
      [`export default () => "x".repeat(2 ** 29)`, { memoryBytes: 16 * MiB }, noHost, []],
      [`export default () => { throw new Error("boom"); }`, {}, noHost, []],
      [`export default () => new Promise(() => {})`, {}, noHost, []],
      [`export default () => ({ s: "x".repeat(1 << 20) })`, {}, noHost, []],
      [`export default () => { for (;;) console.log("spam"); }`, { logBytes: 1024 }, noHost, []],
      [`export default (e, hook) => { hook.readFile("x"); return "left a call behind"; }`, {}, slowHost, ["readFile"]],
      [`export default async (e, hook) => hook.readFile("x")`, { timeoutMs: 20 }, slowHost, ["readFile"]],
    ];
    for (const [source, overrides, host, hostFunctions] of hostile) {
      await engine.invoke(await handlerSpec(source, { hostFunctions }), {}, limits(overrides), host);
    }
    const good = await handlerSpec(`export default async (e: { n: number }, hook) => ({ n: e.n, got: await hook.readFile("f") })`, {
      hostFunctions: ["readFile"],
    });
    for (let n = 0; n < 1000; n++) {
      const outcome = await engine.invoke(good, { n }, limits(), async () => "data");
      if (!outcome.ok || (outcome.value as { n: number }).n !== n) throw new Error(`run ${n}: ${JSON.stringify(outcome)}`);
    }
    await new Promise((r) => setTimeout(r, 100)); // let abandoned host calls settle
    const report = engine.checkLeaks();
    expect(report.filter((r) => r.verdict === "clean").length).toBeGreaterThanOrEqual(hostile.length);
    // A module poisoned by a host-stack overflow is dropped whole; every other one must be clean.
    expect(report.filter((r) => r.verdict !== "clean" && r.verdict !== "discarded")).toEqual([]);
    expect(engine.stats()).toMatchObject({ slots: 0, modules: 0, runtimes: 0, contexts: 0 });
  });
});
