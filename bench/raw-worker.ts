// A raw worker process: the same newline-JSON pipe a Hookbox sandbox worker uses, answering
// each line with a raw warm quickjs-emscripten call. The floor for process-isolated execution.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { rawModule, rawWarm } from "./raw-quickjs.ts";

const require = createRequire(import.meta.url);
const module = await rawModule(new Uint8Array(readFileSync(require.resolve("@jitl/quickjs-wasmfile-release-sync/wasm"))));
const call = rawWarm(module, process.argv[2] as string);
let buffer = "";
process.stdin.on("data", (chunk: Buffer) => {
  buffer += chunk.toString();
  let newline = buffer.indexOf("\n");
  while (newline >= 0) {
    const line = buffer.slice(0, newline);
    buffer = buffer.slice(newline + 1);
    const request = JSON.parse(line) as { id: number; event: unknown };
    process.stdout.write(`${JSON.stringify({ id: request.id, value: call(JSON.stringify(request.event)) })}\n`);
    newline = buffer.indexOf("\n");
  }
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
