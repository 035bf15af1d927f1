// src/daemon owns the long-lived resources of `hookbox serve`: it starts them in order, and
// stops them in the reverse order so no acknowledged audit record is lost.
import { createHandlerSpec, DEFAULT_LIMITS, MiB, SandboxPool, codeHashOf, type HandlerSpec } from "../../sandbox/index.ts";
import { ApprovalStore } from "../approvals/store.ts";
import { readRuns } from "../audit/read.ts";
import { AuditSink } from "../audit/sink.ts";
import type { CapabilityHost } from "../capabilities/types.ts";
import type { Locations } from "../config/locations.ts";
import { formatDiagnostic } from "../config/diagnostics.ts";
import { Dispatcher } from "../dispatch/dispatcher.ts";
import { createInvoker } from "../dispatch/invoker.ts";
import { Metrics } from "../metrics/metrics.ts";
import type { Registry, ReloadReport } from "../registry/registry.ts";
import type { EmbeddedHook } from "../registry/sources.ts";
import { openRegistry } from "../registry/open.ts";
import type { Listener, RuntimeHost } from "../runtime/index.ts";
import { createApp } from "../server/app.ts";
import type { HealthReport, HttpAgentProtocol } from "../server/deps.ts";
import { EventService } from "../service/events.ts";
import { takePrestartedWorker } from "./prestart.ts";
import { claimSocketPath } from "./socket.ts";

export interface DaemonOptions {
  readonly host: RuntimeHost;
  readonly locations: Locations;
  readonly version: string;
  /**
   * Sandbox workers: kept alive at least `min` however idle, at most `max` (more are started
   * while all are busy); one is started with the daemon and any above `min` stops after `idleMs`
   * without work.
   */
  readonly workers: { readonly min: number; readonly max: number; readonly idleMs: number };
  readonly bodyLimitBytes: number;
  readonly capabilities: CapabilityHost;
  readonly embedded: ReadonlyMap<string, EmbeddedHook>;
  readonly agents: { readonly claude?: HttpAgentProtocol };
  /** Loopback TCP listener with a bearer token, for clients without unix sockets. */
  readonly tcp?: { readonly hostname: string; readonly port: number; readonly token: string };
  readonly log: (line: string) => void;
}

export class Daemon {
  private stopping: Promise<void> | undefined;

  private constructor(
    private readonly options: DaemonOptions,
    private readonly registry: Registry,
    private readonly pool: SandboxPool,
    private readonly audit: AuditSink,
    private readonly approvals: ApprovalStore,
    private readonly listeners: readonly Listener[],
    private readonly watcher: { close(): void },
  ) {}

  static async start(options: DaemonOptions): Promise<Daemon> {
    const { host, locations, log } = options;
    const onReload = (report: ReloadReport): void => {
      const changed = [...report.added, ...report.changed, ...report.removed];
      if (changed.length > 0) pool.evict(changed);
      log(`reloaded (registry v${report.version}): +${report.added.length} ~${report.changed.length} -${report.removed.length}${report.keptLastGood.length ? `; kept last good: ${report.keptLastGood.join(", ")}` : ""}`);
      for (const d of report.diagnostics) log(formatDiagnostic(d));
    };
    // The first worker starts before anything else (main.ts may have spawned it already): its
    // start runs on the other core while this process loads the registry.
    const { min, max, idleMs } = options.workers;
    const pool = new SandboxPool({ spawn: () => takePrestartedWorker() ?? host.sandbox.spawnWorker(), minWorkers: min, maxWorkers: max, startWorkers: Math.max(min, 1), idleMs });
    let audit: AuditSink | undefined;
    const listeners: Listener[] = [];
    try {
      const registry = await openRegistry(host, locations, options.capabilities, options.embedded, onReload);
      for (const d of registry.current().diagnostics) log(formatDiagnostic(d));
      const operator = registry.current().operator;
      audit = await AuditSink.open({
        fs: host.fs,
        path: `${locations.dataDir}/audit/hookbox-audit.jsonl`,
        maxFileBytes: operator.audit.max_file_mb * MiB,
        keepFiles: operator.audit.keep_files,
      });
      const approvals = new ApprovalStore();
      const sink = audit;
      const metrics = new Metrics({
        sandbox: () => pool.stats(),
        audit: () => sink.stats(),
        approvalsPending: () => approvals.list().length,
        registry: () => ({ version: registry.current().version, hooks: registry.current().hooks.length, problems: registry.current().diagnostics.length }),
      });
      const dispatcher = new Dispatcher(registry, createInvoker(pool, options.capabilities), { links: host.fs });
      const service = new EventService({ dispatcher, audit, metrics, approvals });
      const probe = await healthProbeSpec();
      const deps = {
        version: options.version,
        service,
        registry,
        approvals,
        runs: (query: Parameters<typeof readRuns>[2]) => sink.flush().then(() => readRuns(host.fs, sink.stats().path, query, operator.audit.keep_files)),
        metrics,
        health: () => health(options.version, pool, probe, registry, sink, approvals),
        agents: options.agents,
        bodyLimitBytes: options.bodyLimitBytes,
      };
      await pool.ready();
      await claimSocketPath(host, locations.socketPath);
      listeners.push(await host.net.serve(createApp(deps).fetch, { unix: locations.socketPath }));
      await host.fs.chmod(locations.socketPath, 0o600);
      if (options.tcp) {
        const { hostname, port, token } = options.tcp;
        listeners.push(await host.net.serve(createApp({ ...deps, bearerToken: token }).fetch, { hostname, port }));
      }
      const watcher = host.fs.watch(
        locations.hookSources.map((s) => s.dir),
        () => void registry.reload(),
      );
      const snapshot = registry.current();
      log(`serving ${snapshot.hooks.length} hook${snapshot.hooks.length === 1 ? "" : "s"} on ${listeners.map((l) => l.address).join(" and ")} (pid ${host.pid}, ${min === max ? max : `${min}-${max}`} sandbox workers${min < max ? `, idle ones stop after ${idleMs / 1000} s` : ""}); audit log ${sink.stats().path}`);
      return new Daemon(options, registry, pool, audit, approvals, listeners, watcher);
    } catch (error) {
      for (const listener of listeners) await listener.close(0);
      await audit?.close();
      await pool.close(0);
      throw error;
    }
  }

  /** Stop accepting, let in-flight requests finish within `graceMs`, flush the audit log, remove the socket. */
  stop(graceMs = 10_000): Promise<void> {
    this.stopping ??= (async () => {
      this.watcher.close();
      this.approvals.close();
      await Promise.all(this.listeners.map((listener) => listener.close(graceMs)));
      await this.audit.close();
      await this.pool.close(1000);
      await this.options.host.fs.remove(this.options.locations.socketPath);
      this.options.log("stopped");
    })();
    return this.stopping;
  }
}

/**
 * A trivial handler the health check runs through the real pool: proves the sandbox answers.
 * Written as the plain JavaScript module the transpiler would emit, so the first answer of a
 * starting daemon does not wait for a TypeScript transform.
 */
async function healthProbeSpec(): Promise<HandlerSpec> {
  const filename = "hookbox:healthz";
  const code = "export default (e) => ({ n: e.n + 1 });";
  return createHandlerSpec({ id: "hookbox-healthz", handler: { filename, code, codeHash: await codeHashOf(filename, code) } });
}

async function health(version: string, pool: SandboxPool, probe: HandlerSpec, registry: Registry, audit: AuditSink, approvals: ApprovalStore): Promise<HealthReport> {
  const started = performance.now();
  const outcome = await pool.invoke(probe, { n: 41 }, { ...DEFAULT_LIMITS, memoryBytes: 4 * MiB, timeoutMs: 2000 }, () => Promise.reject(new Error("no host calls")));
  const sandboxOk = outcome.ok && (outcome.value as { n?: number }).n === 42;
  const snapshot = registry.current();
  const auditStats = audit.stats();
  const checks = {
    sandbox: { ok: sandboxOk, detail: { ms: Math.round((performance.now() - started) * 100) / 100, ...(outcome.ok ? {} : { error: outcome.failure }), pool: pool.stats() } },
    registry: { ok: true, detail: { version: snapshot.version, hooks: snapshot.hooks.length, problems: snapshot.diagnostics.map(formatDiagnostic), loaded_at: snapshot.loadedAt } },
    audit: { ok: auditStats.lastError === undefined || auditStats.dropped === 0, detail: auditStats },
    approvals: { ok: true, detail: { pending: approvals.list().length } },
  };
  return { status: Object.values(checks).every((c) => c.ok) ? "ok" : "degraded", version, checks };
}
