// The composition root: picks the runtime adapter, then runs a sandbox worker (this same program
// started by the pool), `emit` (the agents' hook command: a lean path, it runs on every event),
// or the full command line (for `serve`, with its first sandbox worker already starting).
// No top-level await: the binary is precompiled to bytecode.
import packageJson from "../package.json" with { type: "json" };
import { prestartServeWorker } from "./daemon/prestart.ts";
import { detectLeanRuntime } from "./runtime/index.ts";

async function main(): Promise<void> {
  // The lean host first: emit needs no more, and on Bun it loads no node:* module.
  const lean = await detectLeanRuntime();
  const command = lean.args[0];
  if (command === "__sandbox-worker") {
    await import("./worker.ts");
    return;
  }
  // The version alone needs none of the command line (~100 ms of modules): answer it here, as
  // commander's --version would (the same package.json field, one line).
  if (lean.args.length === 1 && (command === "--version" || command === "-V")) {
    await lean.writeStdout(`${packageJson.version}\n`);
    return lean.exit(0);
  }
  if (command === "emit") {
    const { runEmit } = await import("./cli/emit.ts");
    return lean.exit(await runEmit(lean, lean.args.slice(1)));
  }
  const host = await lean.full();
  prestartServeWorker(host);
  const [{ runCli }, { hookRuntime }] = await Promise.all([import("./cli/index.ts"), import("./compose.ts")]);
  // exit waits for every stdout write: commander prints help without waiting for its write.
  return host.exit(await runCli(host, hookRuntime(host)));
}

void main();
