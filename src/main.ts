// The composition root: picks the runtime adapter, then runs either a sandbox worker
// (this same program started by the pool) or the command line.
import { detectRuntime } from "./runtime/index.ts";

const host = await detectRuntime();
if (host.args[0] === "__sandbox-worker") {
  await import("./worker.ts");
} else {
  const { runCli } = await import("./cli/index.ts");
  const code = await runCli(host);
  host.exit(code);
}
