// A raw worker process: answers each request with a raw warm quickjs-emscripten call, over the
// same kind of channel a Hookbox sandbox worker uses — Bun's IPC channel when started with one
// (bench/raw-worker-client.ts), else newline-delimited JSON on stdin/stdout. The floor for
// process-isolated execution.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { rawModule, rawWarm } from "./raw-quickjs.ts";

const require = createRequire(import.meta.url);
const module = await rawModule(new Uint8Array(readFileSync(require.resolve("@jitl/quickjs-wasmfile-release-sync/wasm"))));
const call = rawWarm(module, process.argv[2] as string);
const answer = (request: { id: number; event: unknown }) => ({ id: request.id, value: call(JSON.stringify(request.event)) });

if (process.send) {
  const send = process.send.bind(process);
  process.on("message", (request: { id: number; event: unknown }) => void send(answer(request)));
  process.on("disconnect", () => process.exit(0));
  send({ ready: true });
} else {
  let buffer = "";
  process.stdin.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline = buffer.indexOf("\n");
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      process.stdout.write(`${JSON.stringify(answer(JSON.parse(line) as { id: number; event: unknown }))}\n`);
      newline = buffer.indexOf("\n");
    }
  });
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
}
