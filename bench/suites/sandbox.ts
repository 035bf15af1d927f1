// Issue 2: per-invocation cost of a trivial TypeScript handler in Hookbox's sandbox, next to
// the raw quickjs-emscripten floor for the same isolation mode, in the same run.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { SandboxEngine, SandboxPool, compileHandler, createHandlerSpec, DEFAULT_LIMITS, type HandlerSpec } from "../../sandbox/index.ts";
import { detectRuntime } from "../../src/platform/index.ts";
import { machine, sideBySide, table, writeSection, type Summary } from "../lib.ts";
import { rawFresh, rawModule, rawWarm } from "../raw-quickjs.ts";
import { rawWorkerIpc } from "../raw-worker-client.ts";

const require = createRequire(import.meta.url);
const HANDLER_TS = `interface ToolEvent { tool_name: string; tool_input: { file_path?: string } }
export default (event: ToolEvent): { action: string } => ({ action: event.tool_name === "Write" && /\\.env$/.test(event.tool_input.file_path ?? "") ? "deny" : "continue" });`;
export const PRE_TOOL_USE = {
  event_type: "PreToolUse",
  session_id: "d76fc1ea-c298-422c-ba8f-7c9c9c6252b3",
  timestamp: "2026-11-22T04:00:00.000Z",
  cwd: "/home/dev/project",
  tool_name: "Write",
  tool_input: { file_path: "/home/dev/project/src/app.ts", content: "export const x = 1;\n" },
  tool_use_id: "toolu_01MOCKSCRIPTED000000000001",
};

async function spec(isolation: "warm" | "fresh"): Promise<HandlerSpec> {
  const compiled = await compileHandler(HANDLER_TS, "/bench/handler.ts");
  if (!compiled.ok) throw new Error(compiled.failure.message);
  return createHandlerSpec({ id: `bench-${isolation}`, handler: compiled.handler, isolation });
}

export async function run(): Promise<string> {
  const wasm = new Uint8Array(readFileSync(require.resolve("@jitl/quickjs-wasmfile-release-sync/wasm")));
  const engine = await SandboxEngine.create({ wasmBytes: wasm });
  const warmSpec = await spec("warm");
  const freshSpec = await spec("fresh");
  const eventJson = JSON.stringify(PRE_TOOL_USE);
  const module = await rawModule(wasm);
  const handlerJs = warmSpec.handler.code;
  const rawWarmCall = rawWarm(module, handlerJs);
  const rawFreshCall = rawFresh(module, handlerJs);
  const noHost = (): Promise<never> => Promise.reject(new Error("none"));
  // Each call gets its own event object, as each event does in the daemon: the engine serializes
  // an event once per object (once per chain), and the raw floor parses its JSON on every call.

  const warm = await sideBySide(
    [
      { name: "raw quickjs-emscripten, warm context", run: () => rawWarmCall(eventJson) },
      { name: "hookbox engine, warm", run: () => engine.invoke(warmSpec, { ...PRE_TOOL_USE }, DEFAULT_LIMITS, noHost) },
    ],
    { rounds: 10, perRound: 500, warmup: 500 },
  );
  const fresh = await sideBySide(
    [
      { name: "raw quickjs-emscripten, fresh runtime+context", run: () => rawFreshCall(eventJson) },
      { name: "hookbox engine, fresh", run: () => engine.invoke(freshSpec, { ...PRE_TOOL_USE }, DEFAULT_LIMITS, noHost) },
    ],
    { rounds: 10, perRound: 100, warmup: 100 },
  );

  const host = await detectRuntime();
  const pool = new SandboxPool({ spawn: () => host.sandbox.spawnWorker(), size: 1 });
  await pool.ready();
  const raw = rawWorkerIpc(handlerJs);
  await raw.ready;
  const isolated = await sideBySide(
    [
      { name: "raw quickjs-emscripten in a worker process (same channel)", run: () => raw.call(PRE_TOOL_USE) },
      { name: "hookbox pool (1 worker process), warm", run: () => pool.invoke(warmSpec, { ...PRE_TOOL_USE }, DEFAULT_LIMITS, noHost) },
    ],
    { rounds: 10, perRound: 300, warmup: 300 },
  );
  raw.kill();
  await pool.close();
  engine.dispose();

  const ratio = (rows: Summary[]): string => ((rows[1] as Summary).p50Us / (rows[0] as Summary).p50Us).toFixed(2);
  return `## Sandbox: one invocation of a trivial TypeScript handler (issue 2)

${machine()}. Event: a Claude Code PreToolUse payload (${eventJson.length} bytes); the handler
is a TypeScript secret-path check. Target: Hookbox p50 ≤ 2× the raw floor of the same isolation mode.

**Warm context per hook** (Hookbox's default; the context stays loaded between events):

${table(warm, warm[0]?.name)}

**Fresh runtime and context per invocation** (\`isolation: fresh\`):

${table(fresh, fresh[0]?.name)}

**Process-isolated** (what the daemon does: the pool's worker process vs a raw worker answering on the same kind of channel, Bun's IPC):

${table(isolated, isolated[0]?.name)}

Ratios (Hookbox p50 ÷ floor p50): warm **${ratio(warm)}×**, fresh **${ratio(fresh)}×**, process-isolated **${ratio(isolated)}×**.
What Hookbox adds over the floor: the interrupt handler (CPU and wall clock), a per-hook
WebAssembly instance with a capped memory, the \`hook\` bridge, log capture, result-size checks,
and failure classification. Warm vs fresh is why warm is the default: the fresh floor alone costs
about ${Math.round((fresh[0] as Summary).p50Us / (warm[0] as Summary).p50Us)}× a warm call.`;
}

if (import.meta.main) writeSection("sandbox", await run());
