// The in-process half of `hookbox emit`: when no daemon answers, evaluate the event here with the
// same hook directories. Loaded only then, so the daemon path stays small and starts fast.
import { SandboxPool, type WorkerProcess } from "../../sandbox/index.ts";
import { AuditSink } from "../audit/sink.ts";
import { hookRuntime } from "../compose.ts";
import type { Locations } from "../config/locations.ts";
import { formatDiagnostic } from "../config/diagnostics.ts";
import { Dispatcher } from "../dispatch/dispatcher.ts";
import { createInvoker } from "../dispatch/invoker.ts";
import type { Decision, NativeEvent } from "../events/types.ts";
import { openRegistry } from "../registry/open.ts";
import type { RuntimeHost } from "../runtime/index.ts";
import { EventService } from "../service/events.ts";

/**
 * The sandbox workers of one evaluation: `started` is already on its way (emit starts it before
 * loading any of this), `spawn` starts its replacements (after a worker killed on a timeout).
 */
export interface LocalWorkers {
  readonly started: WorkerProcess;
  readonly spawn: () => WorkerProcess;
}

export async function evaluateLocally(host: RuntimeHost, locations: Locations, event: NativeEvent, workers: LocalWorkers): Promise<Decision> {
  // Handed to the pool on its first spawn; killed at the end if no pool took it (nothing matched, or loading failed).
  let unclaimed: WorkerProcess | undefined = workers.started;
  const spawn = (): WorkerProcess => {
    const worker = unclaimed ?? workers.spawn();
    unclaimed = undefined;
    return worker;
  };
  try {
    const runtime = hookRuntime(host);
    const capabilities = runtime.capabilities(locations);
    const registry = await openRegistry(host, locations, capabilities, runtime.embedded());
    for (const problem of registry.current().diagnostics) host.writeStderr(`hookbox: ${formatDiagnostic(problem)}\n`);
    const audit = await openAudit(host, locations, registry.current().operator.audit);
    try {
      // Nothing to run (most events of most agents): answer without the sandbox. Matched as the
      // dispatcher will match it: with the targets of the symbolic links it names.
      const links = { links: host.fs };
      const idle = new Dispatcher(registry, createInvoker(unusedExecutor, capabilities), links);
      if (registry.current().match(await idle.prepare(event)).length === 0) return (await new EventService({ dispatcher: idle, audit }).evaluate(event)).decision;
      const pool = new SandboxPool({ spawn, size: 1 });
      try {
        await pool.ready();
        return (await new EventService({ dispatcher: new Dispatcher(registry, createInvoker(pool, capabilities), links), audit }).evaluate(event)).decision;
      } finally {
        await pool.close(0);
      }
    } finally {
      await audit.close();
    }
  } finally {
    unclaimed?.kill();
  }
}

const unusedExecutor = {
  invokeChain: () => Promise.reject(new Error("no hook matched: nothing should run")),
};

function openAudit(host: RuntimeHost, locations: Locations, settings: { max_file_mb: number; keep_files: number }): Promise<AuditSink> {
  // repairTail false: another emit or the daemon may be appending to the same file right now.
  return AuditSink.open({ fs: host.fs, path: `${locations.dataDir}/audit/hookbox-audit.jsonl`, maxFileBytes: settings.max_file_mb * 1024 * 1024, keepFiles: settings.keep_files, repairTail: false });
}
