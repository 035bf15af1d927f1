// The first sandbox worker of `hookbox serve`, spawned by main.ts before the command line and
// the daemon's modules load: a worker's start (~100 ms: a second runtime, QuickJS compiled and
// self-tested) then runs on another core beside the daemon's own (~150 ms), instead of after it.
// Imports nothing at run time, so main.ts pays nothing for it on other commands.
import type { WorkerProcess } from "../../../sandbox/index.ts";
import { startWorker } from "../../decide/executor.ts";
import type { RuntimeHost } from "../../platform/index.ts";

let prestarted: WorkerProcess | undefined;

/** `hookbox serve …` (not its --help): spawn the first worker now. Its messages wait for the pool. */
export function prestartServeWorker(host: RuntimeHost): void {
  const [command, ...rest] = host.args;
  if (command !== "serve" || rest.includes("--help") || rest.includes("-h")) return;
  // Undefined when it cannot be spawned: the daemon's executor spawns its own and reports why it cannot.
  prestarted = startWorker(host.sandbox, "process");
}

/** The prestarted worker, once: the pool's first spawn takes it. */
export function takePrestartedWorker(): WorkerProcess | undefined {
  const worker = prestarted;
  prestarted = undefined;
  return worker;
}
