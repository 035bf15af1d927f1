import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { SandboxEngine, DEFAULT_LIMITS } from "./sandbox/index.ts";
import { handlerSpec } from "./test/helpers/sandbox.ts";
const require = createRequire(import.meta.url);
const engine = await SandboxEngine.create({ wasmBytes: new Uint8Array(readFileSync(require.resolve("@jitl/quickjs-wasmfile-release-sync/wasm"))), maxSlots: 128 });
const event = { event_type: "PreToolUse", session_id: "s", tool_name: "Write", tool_input: { file_path: "a" } };
const noHost = () => Promise.reject(new Error("x"));
for (const n of [1, 10, 50]) {
  const specs = await Promise.all(Array.from({ length: n }, (_, i) => handlerSpec("export default () => ({ action: 'continue' })", { id: `h${n}-${i}` })));
  for (let r = 0; r < 20; r++) for (const s of specs) await engine.invoke(s, event, DEFAULT_LIMITS, noHost);
  const t = performance.now(); const R = 100;
  for (let r = 0; r < R; r++) for (const s of specs) await engine.invoke(s, event, DEFAULT_LIMITS, noHost);
  console.log(typeof Bun !== "undefined" ? "bun" : "node", n, "slots rotating:", ((performance.now() - t) / R / n * 1000).toFixed(1), "us/invoke");
}
