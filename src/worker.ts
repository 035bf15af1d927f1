// Entry of a sandbox worker process: QuickJS runs here, off the daemon's event loop, in a
// process the pool can kill. It loads only the runtime adapter and sandbox/, not the CLI.
// Between the hooks of a chain it applies the pipeline's own rules (src/dispatch/chain.ts).
import { serveSandboxWorker } from "../sandbox/index.ts";
import { continueChain } from "./dispatch/chain.ts";
import { detectRuntime } from "./runtime/index.ts";

void detectRuntime().then(async (host) =>
  serveSandboxWorker(host.sandbox.workerIO(), { wasmBytes: await host.sandbox.loadQuickJsWasm(), continuation: continueChain }),
);
