// Issue 3: dispatch cost for 1, 10 and 50 matching no-op hooks per event, in-process, with the
// 50-hook p50 as a ratio to 50 × the raw sandbox floor measured in the same run.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { SandboxEngine } from "../../sandbox/index.ts";
import { fakeCapabilities } from "../../test/helpers/fake-capabilities.ts";
import { parseEvent } from "../../src/core/events/parse.ts";
import { dispatchEnv } from "../../test/helpers/dispatch-env.ts";
import { machine, sideBySide, table, writeSection, type Summary } from "../lib.ts";
import { rawModule, rawWarm } from "../raw-quickjs.ts";
import { PRE_TOOL_USE } from "./sandbox.ts";

const require = createRequire(import.meta.url);

export async function run(): Promise<string> {
  const wasm = new Uint8Array(readFileSync(require.resolve("@jitl/quickjs-wasmfile-release-sync/wasm")));
  const engine = await SandboxEngine.create({ wasmBytes: wasm, maxSlots: 128 });
  const noop = "export default (event: { tool_name: string }) => ({ action: 'continue' });";
  const chains = new Map<number, Awaited<ReturnType<typeof dispatchEnv>>>();
  for (const n of [1, 10, 50]) {
    const hooks = Array.from({ length: n }, (_, i) => ({
      id: `noop-${i}`,
      events: ["PreToolUse"],
      priority: i,
      match: { tool: "Write|Edit" },
      handler: { code: noop },
    }));
    chains.set(n, await dispatchEnv(engine, { hooks }, fakeCapabilities()));
  }
  const event = parseEvent(PRE_TOOL_USE);
  const rawCall = rawWarm(await rawModule(wasm), "export default (event) => ({ action: 'continue' });");
  const eventJson = JSON.stringify(event);
  const rows = await sideBySide(
    [
      { name: "raw quickjs-emscripten warm call (the floor)", run: () => rawCall(eventJson) },
      ...[1, 10, 50].map((n) => ({
        name: `dispatch, ${n} matching hook${n > 1 ? "s" : ""}`,
        run: () => chains.get(n)?.dispatcher.handle({ ...event }),
      })),
    ],
    { rounds: 8, perRound: 100, warmup: 100 },
  );
  engine.dispose();
  const floor = rows[0] as Summary;
  const fifty = rows[3] as Summary;
  const one = rows[1] as Summary;
  return `## Dispatch: matching no-op hooks per event, in-process (issue 3)

${machine()}. Each hook matches (\`tool: Write|Edit\`), runs in its own warm sandbox and returns
\`continue\`; the event is a Claude Code PreToolUse payload. The raw floor is one warm
quickjs-emscripten call with the same marshalling.

${table(rows, floor.name)}

50-hook p50 ÷ (50 × floor p50) = **${(fifty.p50Us / (50 * floor.p50Us)).toFixed(2)}** — the pipeline's
cost per hook beyond the bare engine call (matching, grants, result validation, audit records).
Per-hook cost at 50 hooks: ${(fifty.p50Us / 50).toFixed(1)} µs; 50 hooks ÷ 1 hook: ${(fifty.p50Us / one.p50Us).toFixed(1)}×.`;
}

if (import.meta.main) writeSection("dispatch", await run());
