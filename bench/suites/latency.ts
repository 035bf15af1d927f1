// Issue 8 A: one PreToolUse event (a secret-path check) answered by `hookbox serve` over its
// unix socket with 1 and with 10 sandboxed hooks, against the same check as a process-per-
// event command hook (bash+jq, python3, node, a bun-compiled binary), @sebastianwessel/quickjs
// running the same TypeScript, and the raw quickjs-emscripten floor — side by side, one run.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { loadQuickJs } from "@sebastianwessel/quickjs";
import quickjsVariant from "@jitl/quickjs-wasmfile-release-sync";
import { compileHandler } from "../../sandbox/index.ts";
import { BINARY, compiled, ensureBinary, post, ROOT, runProcess, startDaemon, WRITE_EVENT } from "../env.ts";
import { fmtUs, machine, sideBySide, table, writeSection, type Summary } from "../lib.ts";
import { rawModule, rawWarm } from "../raw-quickjs.ts";

const require = createRequire(import.meta.url);

export async function run(): Promise<string> {
  ensureBinary();
  const one = await startDaemon(1);
  const ten = await startDaemon(10);
  const bunHook = compiled("check-bun", "bench/hooks/check-bun.ts");
  const payload = JSON.stringify(WRITE_EVENT);
  const native = { ...WRITE_EVENT, event_type: "PreToolUse" };
  const handlerTs = readFileSync(join(ROOT, "bench/hooks/secret-check.ts"), "utf8");

  const compiledHandler = await compileHandler(handlerTs, "secret-check.ts");
  if (!compiledHandler.ok) throw new Error(compiledHandler.failure.message);
  const raw = rawWarm(await rawModule(new Uint8Array(readFileSync(require.resolve("@jitl/quickjs-wasmfile-release-sync/wasm")))), compiledHandler.handler.code);
  const { runSandboxed } = await loadQuickJs(quickjsVariant as never);
  // The same TypeScript, run the way @sebastianwessel/quickjs runs code: a module per call.
  const wesselCode = `${handlerTs.replace("export default function handler", "function handler")}\nexport default handler(env.EVENT);`;
  const wesselOptions = { transformTypescript: true, env: { EVENT: WRITE_EVENT } };

  const spawned = (name: string, command: string[]) => ({ name, run: () => runProcess(command, payload), perRound: 6, warmup: 2 });
  const rows = await sideBySide(
    [
      { name: "hookbox serve, 1 hook (unix socket)", run: () => post(one.socket, "/v1/events/PreToolUse", native) },
      { name: "hookbox serve, 10 hooks (unix socket)", run: () => post(ten.socket, "/v1/events/PreToolUse", native) },
      { name: "raw quickjs-emscripten warm call (floor)", run: () => raw(payload) },
      { name: "@sebastianwessel/quickjs, same TypeScript", run: () => runSandboxed(async ({ evalCode }) => evalCode(wesselCode), wesselOptions), perRound: 20, warmup: 5 },
      spawned("command hook: bash + jq", ["/bin/bash", join(ROOT, "bench/hooks/check.sh")]),
      spawned("command hook: python3", ["python3", join(ROOT, "bench/hooks/check.py")]),
      spawned("command hook: node", [process.env.BENCH_NODE ?? "node", join(ROOT, "bench/hooks/check.mjs")]),
      spawned("command hook: bun-compiled binary", [bunHook]),
    ],
    { rounds: 8, perRound: 250, warmup: 200 },
  );
  await one.stop();
  await ten.stop();
  const by = (prefix: string): Summary => rows.find((r) => r.name.startsWith(prefix)) as Summary;
  const hookbox1 = by("hookbox serve, 1 hook");
  const hookbox10 = by("hookbox serve, 10 hooks");
  const node = by("command hook: node");
  const wessel = by("@sebastianwessel");
  const verdict = (ok: boolean): string => (ok ? "met" : "**missed**");
  const nodeRatio = node.p50Us / hookbox1.p50Us;
  const wesselRatio = wessel.p50Us / hookbox1.p50Us;
  const tenRatio = hookbox10.p50Us / hookbox1.p50Us;
  return `## A. One PreToolUse event, end to end (issue 8)

${machine()}. binary: ${BINARY.replace(ROOT + "/", "")}. Every contender runs the same secret-path check on a
Claude Code PreToolUse payload (a Write to \`src/app.ts\`, allowed after the full check). Daemon
requests are HTTP over the unix socket from this process; command hooks are spawned per event with
the payload on stdin, as an agent does; @sebastianwessel/quickjs and the floor run in-process.

${table(rows, hookbox1.name)}

| target | measured | |
|---|---:|---|
| 1 hook ≥ 200× faster than the node command hook (p50) | ${nodeRatio.toFixed(0)}× (${fmtUs(node.p50Us)} vs ${fmtUs(hookbox1.p50Us)}) | ${verdict(nodeRatio >= 200)} |
| 1 hook ≥ 30× faster than @sebastianwessel/quickjs (p50) | ${wesselRatio.toFixed(0)}× | ${verdict(wesselRatio >= 30)} |
| 10 hooks ≤ 4× the 1-hook time (p50) | ${tenRatio.toFixed(2)}× | ${verdict(tenRatio <= 4)} |

The 10 hooks of an event run as one chain in one sandbox worker (one round trip); each hook
still gets its own WebAssembly instance, limits and audit record.`;
}

if (import.meta.main) writeSection("latency", await run());
