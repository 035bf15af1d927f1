// Entry of a sandbox worker process: QuickJS runs here, off the daemon's event loop, in a
// process the pool can kill. It loads only the runtime adapter and the sandbox's worker code,
// not the CLI, the pool or the TypeScript transpiler (the daemon compiles handlers).
// Between the hooks of a chain it applies the pipeline's own rules (src/decide/chain/chain.ts).
// Its start is on the path of the daemon's cold start and of the first event after idle: the
// wasm compiles on the engine's compiler thread while this thread loads the rest.
import { compileQuickJs } from "../sandbox/start.ts";
import { detectRuntime } from "./platform/index.ts";

void detectRuntime().then(async (host) => {
  const wasmBytes = await host.sandbox.loadQuickJsWasm();
  const compiling = compileQuickJs(wasmBytes);
  const [{ serveSandboxWorker }, { continueChain }, { selfThreadCpuClock }] = await Promise.all([
    import("../sandbox/worker.ts"),
    import("./decide/chain/chain.ts"),
    import("./platform/cpu-time.ts"),
  ]);
  const threadCpuMs = selfThreadCpuClock();
  await serveSandboxWorker(host.sandbox.workerIO(), { wasmBytes, compiling, continuation: continueChain, ...(threadCpuMs ? { threadCpuMs } : {}) });
});
