// sandbox/start.ts is the entry for what runs before the engine or the pool loads: a worker
// compiling the wasm, a host holding an early worker's messages. It must import nothing at run time
// beyond these two small modules (main.ts and emit load it on every command), nor anything from src/.
export { compileQuickJs } from "./engine/compile.ts";
export { holdMessages } from "./pool/held-worker.ts";
export type { WorkerProcess } from "./worker/protocol.ts";
