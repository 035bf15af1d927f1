// The in-process half of `hookbox emit`: when no daemon answers, evaluate the event here with the
// same hook directories. Loaded only then, so the daemon path stays small and starts fast.
import { SandboxPool } from "../../sandbox/index.ts";
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

export async function evaluateLocally(host: RuntimeHost, locations: Locations, event: NativeEvent): Promise<Decision> {
  const runtime = hookRuntime(host);
  const capabilities = runtime.capabilities(locations);
  const registry = await openRegistry(host, locations, capabilities, runtime.embedded());
  for (const problem of registry.current().diagnostics) host.writeStderr(`hookbox: ${formatDiagnostic(problem)}\n`);
  const audit = await openAudit(host, locations, registry.current().operator.audit);
  try {
    if (registry.current().match(event).length === 0) {
      // Nothing to run: answer without starting a sandbox (most events of most agents).
      return (await new EventService({ dispatcher: new Dispatcher(registry, createInvoker(unusedExecutor, capabilities)), audit }).evaluate(event)).decision;
    }
    const pool = new SandboxPool({ spawn: () => host.sandbox.spawnWorker(), size: 1 });
    try {
      await pool.ready();
      return (await new EventService({ dispatcher: new Dispatcher(registry, createInvoker(pool, capabilities)), audit }).evaluate(event)).decision;
    } finally {
      await pool.close(0);
    }
  } finally {
    await audit.close();
  }
}

const unusedExecutor = {
  invokeChain: () => Promise.reject(new Error("no hook matched: nothing should run")),
};

function openAudit(host: RuntimeHost, locations: Locations, settings: { max_file_mb: number; keep_files: number }): Promise<AuditSink> {
  // repairTail false: another emit or the daemon may be appending to the same file right now.
  return AuditSink.open({ fs: host.fs, path: `${locations.dataDir}/audit/hookbox-audit.jsonl`, maxFileBytes: settings.max_file_mb * 1024 * 1024, keepFiles: settings.keep_files, repairTail: false });
}
