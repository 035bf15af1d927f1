// The composition root: picks the runtime adapter, then runs either a sandbox worker
// (this same program started by the pool) or the command line.
import { detectRuntime } from "./runtime/index.ts";

const host = await detectRuntime();
if (host.args[0] === "__sandbox-worker") {
  await import("./worker.ts");
} else {
  const [{ runCli }, { hookRuntime }] = await Promise.all([import("./cli/index.ts"), import("./compose.ts")]);
  const code = await runCli(host, hookRuntime(host));
  host.exit(code);
}
