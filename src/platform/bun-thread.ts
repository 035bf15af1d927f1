import embeddedWasmPath from "@jitl/quickjs-wasmfile-release-sync/wasm" with { type: "file" };
import { webThreadIO } from "./thread-worker.ts";
import type { SandboxHost } from "./types.ts";

/**
 * What a sandbox worker thread needs on Bun, from Bun's globals alone: the thread starts while
 * emit's main thread loads the hooks, and node:* modules would slow both (see LeanHost).
 */
export const bunThreadSandbox: Pick<SandboxHost, "loadQuickJsWasm" | "threadWorkerIO"> = {
  loadQuickJsWasm: () => Bun.file(embeddedWasmPath).bytes(),
  threadWorkerIO: webThreadIO,
};
