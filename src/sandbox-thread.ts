// Entry of a sandbox worker *thread* (emit without a daemon; src/platform/thread-worker.ts says
// what that trades): the loop of src/worker.ts over the thread's port instead of a process pipe.
// sandbox/worker.ts, not the sandbox/ index: the index would bring the TypeScript transpiler into the thread.
import { serveSandboxWorker } from "../sandbox/worker.ts";
import { continueChain } from "./decide/chain/chain.ts";
import { detectThreadRuntime } from "./platform/index.ts";

void detectThreadRuntime().then(async (sandbox) => {
  const threadCpuMs = (await import("./platform/cpu-time.ts")).selfThreadCpuClock();
  await serveSandboxWorker(sandbox.threadWorkerIO(), {
    wasmBytes: await sandbox.loadQuickJsWasm(),
    continuation: continueChain,
    ...(threadCpuMs ? { threadCpuMs } : {}),
  });
});
