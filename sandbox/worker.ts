// sandbox/worker.ts is the entry of a sandbox worker (process or thread): the loop that runs handlers in the engine.
// It must not import the pool or the TypeScript transpiler (the host compiles handlers), nor anything from src/.
export { serveSandboxWorker, type WorkerOptions } from "./worker/serve.ts";
export type { WorkerIO } from "./worker/protocol.ts";
