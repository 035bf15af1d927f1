// The composition root: picks the runtime adapter, then runs a sandbox worker (this same program
// started by the pool), `emit` (the agents' hook command: a lean path, it runs on every event),
// or the full command line (for `serve`, with its first sandbox worker already starting).
// No top-level await: the binary is precompiled to bytecode.
import { prestartServeWorker } from "./serve/daemon/prestart.ts";
import { detectLeanRuntime } from "./platform/index.ts";
import { VERSION, versionFlag, versionInfo, versionJson } from "./core/version/index.ts";
import { catalogDigest } from "./hooks/builtin/standard-hooks.ts";

async function main(): Promise<void> {
  // The lean host first: emit needs no more, and on Bun it loads no node:* module.
  const lean = await detectLeanRuntime();
  const command = lean.args[0];
  if (command === "__sandbox-worker") {
    await import("./worker.ts");
    return;
  }
  // The version needs none of the command line (~100 ms of modules): answered here, one line as
  // commander's --version would, or with --json all of `hookbox version --json`.
  const version = versionFlag(lean.args);
  if (version) {
    await lean.writeStdout(version === "json" ? versionJson(await versionInfo(catalogDigest)) : `${VERSION}\n`);
    return lean.exit(0);
  }
  if (command === "emit") {
    const { runEmit } = await import("./cli/emit.ts");
    return lean.exit(await runEmit(lean, lean.args.slice(1)));
  }
  const host = await lean.full();
  prestartServeWorker(host);
  // The daemon starts without the command line's other commands (commander, the transpiler's users …).
  if (command === "serve" && !lean.args.includes("--help") && !lean.args.includes("-h")) {
    const [{ runServe }, { hookRuntime }] = await Promise.all([import("./cli/serve-run.ts"), import("./cli/compose.ts")]);
    return host.exit(await runServe(host, lean.args.slice(1), hookRuntime(host), VERSION));
  }
  const [{ runCli }, { hookRuntime }] = await Promise.all([import("./cli/index.ts"), import("./cli/compose.ts")]);
  // exit waits for every stdout write: commander prints help without waiting for its write.
  return host.exit(await runCli(host, hookRuntime(host)));
}

void main();
