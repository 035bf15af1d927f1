// src/serve/daemon owns the long-lived resources of `hookbox serve`: it starts them in order, and
// stops them in the reverse order so no acknowledged audit record is lost.
import { createHandlerSpec, DEFAULT_LIMITS, MiB, codeHashOf, type HandlerSpec } from "../../../sandbox/index.ts";
import { ApprovalStore } from "../../decide/approvals/store.ts";
import { notifyWhenHeld } from "../../decide/approvals/notify.ts";
import { describeExport, startAuditExport, type AuditExport } from "../../decide/audit/export/index.ts";
import type { ConsoleServer } from "../console/index.ts";
import { auditFilePath, openAuditLog, type AuditLog } from "../../decide/audit/open.ts";
import type { AuditEntry } from "../../decide/audit/record.ts";
import { DEFAULT_SYSTEM_LOG, sendHead } from "../../decide/audit/system-log.ts";
import type { ChainStats } from "../../decide/audit/sink.ts";
import { readRuns } from "../../decide/audit/read.ts";
import { BUILD_ID } from "../../core/version/index.ts";
import type { CapabilityHost } from "../../capabilities/types.ts";
import { formatDiagnostic } from "../../hooks/config/diagnostic.ts";
import type { OperatorFile, SystemLogConfig } from "../../hooks/config/schema.ts";
import { errorMessage } from "../../core/errors.ts";
import type { Locations } from "../../hooks/config/locations.ts";
import { composeEvaluator, operatorSourceFor } from "../../decide/compose.ts";
import { createExecutor, type Executor } from "../../decide/executor.ts";
import type { Evaluator } from "../../decide/evaluator.ts";
import { guardsOf, unguardedMessage } from "../../decide/guards.ts";
import { selfProtectState } from "../../decide/self-protect.ts";
import { identityOf } from "../../decide/identity.ts";
import { describeOperatorProblems } from "../../decide/operator-source.ts";
import { Metrics } from "../../decide/metrics/metrics.ts";
import type { EmbeddedHook } from "../../hooks/registry/sources.ts";
import type { Listener, RuntimeHost } from "../../platform/index.ts";
import { createApp } from "../api/app.ts";
import type { HealthReport } from "../api/deps.ts";
import { daemonControl, countingEvents } from "./control.ts";
import { Lifecycle } from "./lifecycle.ts";
import { warmProject } from "./warm.ts";
import type { FleetPoller } from "../../hooks/packages/fleet.ts";
import { startBundleSources } from "./bundle-sources.ts";
import { takePrestartedWorker } from "./prestart.ts";
import { claimSocketPath, lockSocketPath } from "./socket.ts";
import { retireOtherBuilds } from "./succession.ts";
import type { DaemonOrigin } from "../../core/wire/daemon.ts";
import { systemClock, TriggerRunner } from "../triggers/index.ts";

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
  /** A person's `hookbox serve`, or started by `emit` (auto): see lifecycle.ts. */
  readonly origin: DaemonOrigin;
  /** Exit after this long without events; undefined: never. */
  readonly idleExitSeconds: number | undefined;
  /**
   * Projects whose hooks are built at start, before their first event (the project of the emit
   * that started this daemon, or of the directory `serve` was started in); none: the hooks every
   * project shares.
   */
  readonly warm?: readonly string[];
  /** Agent sessions already open (the SessionStart the starting emit answered itself): they hold the daemon like one it saw start. */
  readonly sessions?: readonly string[];
  /** An auto-started daemon's lock on its socket, inherited from the emit that started it (a descriptor). */
  readonly inheritedLockFd?: number;
  /** Loopback TCP listener with a bearer token, for clients without unix sockets. */
  readonly tcp?: { readonly hostname: string; readonly port: number; readonly token: string };
  /** The web console on loopback TCP (src/serve/console). */
  readonly console?: { readonly hostname: string; readonly port: number };
  readonly log: (line: string) => void;
}

export class Daemon {
  private stopping: Promise<void> | undefined;
  private finished: () => void = () => undefined;
  /** Settles once the daemon has stopped, whoever stopped it (a signal, idle, POST /v1/daemon/stop). */
  readonly done = new Promise<void>((resolve) => (this.finished = resolve));

  private constructor(
    private readonly options: DaemonOptions,
    private readonly evaluator: Evaluator,
    private readonly pool: Executor,
    private readonly audit: AuditLog,
    private readonly approvals: ApprovalStore,
    private readonly listeners: readonly Listener[],
    private readonly lifecycle: Lifecycle,
    private readonly bundleSources: FleetPoller,
    private readonly exporter: AuditExport | undefined,
    private readonly consoleServer: ConsoleServer | undefined,
    private readonly triggers: TriggerRunner,
  ) {}

  static async start(options: DaemonOptions): Promise<Daemon> {
    const { host, locations, log } = options;
    // First: the one daemon of this socket is whoever holds its lock (held until this process exits).
    await lockSocketPath(host, locations.socketPath, options.inheritedLockFd);
    // The first worker starts before anything else (main.ts may have spawned it already): its
    // start runs on the other core while this process loads the hooks.
    const { min, max, idleMs } = options.workers;
    const prestarted = takePrestartedWorker();
    const pool = await createExecutor({ sandbox: host.sandbox, workers: options.workers, ...(prestarted ? { prestarted } : {}) });
    let audit: AuditLog | undefined;
    let exporter: AuditExport | undefined;
    let consoleServer: ConsoleServer | undefined;
    const listeners: Listener[] = [];
    try {
      const approvals = new ApprovalStore();
      // The operator file, read once here: the audit settings, the evaluator, its hook sets and the
      // bundle sources all see this one source (re-read as the file changes, the last good kept).
      const operator = operatorSourceFor({ host, locations, embedded: options.embedded, via: "daemon" });
      // Audit settings are taken at start: rotation limits of a running log do not change under it.
      const view = await operator.read();
      const auditSettings = view.operator.audit;
      // Under a system policy (the system tier) every chain head goes to the system log as well.
      const systemTier = view.layers !== undefined;
      audit = await openAuditLog({
        fs: host.fs,
        dataDir: locations.dataDir,
        pid: host.pid,
        maxFileBytes: auditSettings.max_file_mb * MiB,
        keepFiles: auditSettings.keep_files,
        repairTail: true,
      });
      const sink = audit;
      if (sink.stats().failing) log(`the audit log cannot be written: ${sink.stats().lastError}; answers still leave, each one says so`);
      else {
        const chain = describeChainAtStart(sink.stats().chain);
        if (chain) log(chain);
      }
      const shipping = await openExport(auditSettings.export, host, options.version, log);
      if (shipping) sink.onAppend(shipping.push);
      exporter = shipping;
      // The system tier: each chain head to the system log as well (decide/audit/system-log.ts).
      if (systemTier)
        sink.onAppend(anchorInSystemLog(host, sink, auditFilePath(locations.dataDir), auditSettings.system_log ?? DEFAULT_SYSTEM_LOG, log));
      // The metrics read the evaluator's hook sets, and the evaluator records into the metrics.
      const holder: { evaluator?: Evaluator } = {};
      const metrics = new Metrics({
        sandbox: () => pool.stats(),
        audit: () => sink.stats(),
        approvalsPending: () => approvals.list().length,
        hookSets: () => ({ projects: holder.evaluator?.hookSets.projects().length ?? 0 }),
        exports: () => exporter?.stats() ?? [],
      });
      const ready = await composeEvaluator({
        host,
        locations,
        capabilities: options.capabilities,
        embedded: options.embedded,
        executor: pool,
        audit: sink,
        via: "daemon",
        operator,
        approvals,
        metrics,
        log,
        onReload: (project, report) => {
          const changed = [...report.added, ...report.changed, ...report.removed];
          if (changed.length > 0) pool.evict(changed);
          log(
            `reloaded ${project ?? "the user's hooks"} (v${report.version}): +${report.added.length} ~${report.changed.length} -${report.removed.length}${report.broken.length ? `; broken: ${report.broken.join(", ")}` : ""}`,
          );
          for (const d of report.diagnostics) log(formatDiagnostic(d));
        },
      });
      holder.evaluator = ready;
      // The hooks every project shares, loaded now so their problems show at start.
      const shared = (await ready.hookSets.forProject(undefined)).snapshot;
      const self: { daemon?: Daemon } = {};
      const warming = new Map<string, Promise<unknown>>();
      // One warm-up per project at a time; one asked for again later finds its guests warm and is cheap.
      const warm = (project: string | undefined): void => {
        const key = project ?? "";
        if (warming.has(key) || self.daemon?.isStopping) return;
        warming.set(
          key,
          warmProject({ hookSets: ready.hookSets, executor: pool, log }, project).finally(() => warming.delete(key)),
        );
      };
      const warmAll = (): void => {
        // Under --hooks every event gets the one set, which names no project.
        for (const project of options.warm?.length && ready.hookSets.servesProjects() ? options.warm : [undefined]) warm(project);
      };
      // A daemon an agent's emit started: no event comes before the session's first tool call, a
      // model turn away, and the guests build in the worker (another core) while this process
      // finishes starting. A serve a person started warms once it answers (below).
      const warmEarly = options.origin === "auto" && (options.warm?.length ?? 0) > 0;
      if (warmEarly) warmAll();
      for (const d of shared.diagnostics) log(formatDiagnostic(d));
      if (shared.operatorStatus.state === "unusable")
        log(`the operator file is invalid (${describeOperatorProblems(shared.operatorStatus.problems)}): every event is denied until it is fixed`);
      if (options.console) {
        // Loaded only when asked for: a daemon without a console does not pay for its pages.
        const { startConsole } = await import("../console/index.ts");
        consoleServer = await startConsole({
          ...options.console,
          net: host.net,
          fs: host.fs,
          audit: sink,
          exports: () => exporter?.stats() ?? [],
          approvals,
          evaluator: ready,
          sandbox: () => pool.stats(),
          version: options.version,
          pid: host.pid,
          operatorFile: locations.operatorFile.path,
          dataDir: locations.dataDir,
        });
        log(
          `console on ${consoleServer.origin}; sign in (once, within 10 minutes) at ${consoleServer.loginUrl()} — or run \`hookbox console\` for a new link`,
        );
      }
      // Schedules and watches of the hooks of every project the daemon serves (src/serve/triggers).
      const triggers = new TriggerRunner({
        evaluator: ready,
        clock: systemClock,
        io: host.capabilityIO,
        hint: host.fs.watch,
        notify: host.notify,
        log,
      });
      const shownAt = consoleServer;
      notifyWhenHeld(approvals, host.desktop, log, () =>
        shownAt ? `the console (${shownAt.origin}/approvals) or with hookbox approve` : "hookbox approvals",
      );
      const probe = await healthProbeSpec();
      const identity = identityOf(locations, BUILD_ID, host.homeDir());
      const lifecycle = new Lifecycle({
        origin: options.origin,
        socketPath: locations.socketPath,
        idleExitSeconds: options.idleExitSeconds,
        settings: async () => {
          const view = await ready.hookSets.operatorView();
          return view.status.state === "unusable" ? undefined : view.operator.daemon;
        },
        fs: host.fs,
        onExpired: (why) => self.daemon?.stopFor(why),
        // While an agent session is open one worker stays, with the guests it built: the session's
        // next tool call, however long after, finds them warm.
        onSessions: (open) => pool.hold(open > 0 ? 1 : 0),
      });
      for (const session of options.sessions ?? []) lifecycle.sessionEvent("SessionStart", session);
      const control = daemonControl({
        host,
        options,
        identity,
        lifecycle,
        evaluator: ready,
        listeners,
        stop: (why) => self.daemon?.stopFor(why),
        // After the answer has left: the worker that ran the SessionStart's hooks is free again.
        warm: (project) => setTimeout(() => warm(project), 0),
      });
      const deps = {
        version: options.version,
        evaluator: ready,
        identity,
        approvals,
        runs: (query: Parameters<typeof readRuns>[2]) =>
          sink.flush().then(() => readRuns(host.fs, sink.stats().path, query, auditSettings.keep_files)),
        metrics,
        health: () => health({ version: options.version, identity, pid: host.pid }, pool, probe, ready, sink, approvals),
        ...(shownAt ? { console: { loginUrl: () => shownAt.loginUrl() } } : {}),
        bodyLimitBytes: options.bodyLimitBytes,
        ...(host.uid() !== undefined ? { ownerUid: host.uid() as number } : {}),
        daemon: control,
        triggers,
      };
      await pool.ready();
      await claimSocketPath(host, locations.socketPath);
      listeners.push(await host.net.serve(countingEvents(createApp(deps), lifecycle), { unix: locations.socketPath }));
      await host.fs.chmod(locations.socketPath, 0o600);
      if (options.tcp) {
        const { hostname, port, token } = options.tcp;
        // Console login links only on the owner-only unix socket.
        listeners.push(await host.net.serve(createApp({ ...deps, console: undefined, bearerToken: token }).fetch, { hostname, port }));
      }
      const count = shared.hooks.length + shared.broken.length;
      const scope = locations.hookSources.every((s) => s.origin === "dir") ? "" : " plus each project's .hookbox/hooks";
      log(
        `serving ${count} hook${count === 1 ? "" : "s"}${shared.broken.length ? ` (${shared.broken.length} broken)` : ""}${scope} on ${listeners.map((l) => l.address).join(" and ")} (pid ${host.pid}, ${min === max ? max : `${min}-${max}`} sandbox workers${min < max ? `, idle ones stop after ${idleMs / 1000} s` : ""}); audit log ${sink.stats().path}`,
      );
      if (shared.operatorStatus.state === "ok" && guardsOf(shared.hooks).length === 0)
        log(
          `NO GUARD: ${unguardedMessage("every agent this daemon answers (unless its project brings a guard)", locations.operatorFile.path, selfProtectState(shared.operator) === "on")}`,
        );
      if (listeners[0]?.peerCredentials === false)
        log("the connecting process's uid cannot be read here: the socket's permissions alone keep other users out");
      const daemon = new Daemon(
        options,
        ready,
        pool,
        audit,
        approvals,
        listeners,
        lifecycle,
        startBundleSources(host, locations, operator, options.capabilities, log),
        exporter,
        consoleServer,
        triggers,
      );
      self.daemon = daemon;
      triggers.start();
      await lifecycle.start();
      // Once the socket answers (started earlier, the warm-up slowed serve's first answer by ~15% and
      // sped up nothing measurable: BENCHMARKS F). An event arriving meanwhile waits behind the hook
      // being built, for its warm guests.
      if (!warmEarly) warmAll();
      if (options.origin === "auto") void retireOtherBuilds(host, locations.socketPath, identity, log);
      return daemon;
    } catch (error) {
      await consoleServer?.close();
      for (const listener of listeners) await listener.close(0);
      await audit?.close();
      await exporter?.close(0);
      await pool.close(0);
      throw error;
    }
  }

  /** True once the daemon began to stop: nothing new is started then. */
  get isStopping(): boolean {
    return this.stopping !== undefined;
  }

  /** Reload every loaded project's hooks and the operator file now (SIGHUP). */
  async reload(): Promise<void> {
    await this.evaluator.hookSets.reloadAll();
    this.options.log("reloaded on request (SIGHUP)");
  }

  /** Stop accepting, let in-flight requests finish within `graceMs`, flush the audit log, remove the socket. */
  stop(graceMs = 10_000): Promise<void> {
    this.stopping ??= (async () => {
      this.lifecycle.stop();
      await this.consoleServer?.close();
      this.approvals.close();
      await this.bundleSources.stop();
      // No new triggered run starts; the ones in flight finish before the pool and the log close.
      await this.triggers.stop();
      // The socket goes first: an emit arriving now finds nobody and answers itself, rather than
      // wait on a daemon that is leaving. A socket another daemon put there since is not ours.
      const socket = this.options.locations.socketPath;
      if ((await this.options.host.fs.stamp(socket)) === this.lifecycle.socketStamp()) await this.options.host.fs.remove(socket);
      await Promise.all(this.listeners.map((listener) => listener.close(graceMs)));
      await this.audit.close();
      await this.exporter?.close(EXPORT_DRAIN_MS);
      await this.pool.close(1000);
      this.options.log("stopped");
      this.finished();
    })();
    return this.stopping;
  }

  /** Stop, saying why (idle, a stop request, its socket gone). */
  stopFor(why: string): void {
    this.options.log(`stopping: ${why}`);
    void this.stop();
  }
}

/**
 * The start's log line on the chain's tail: quiet when intact, loud when broken (the daemon
 * serves on); none for a log with no link to check yet (a first start: nothing to say).
 */
function describeChainAtStart(chain: ChainStats): string | undefined {
  if (!chain.broken && chain.checkedLinks === 0) return undefined;
  if (!chain.broken)
    return `audit chain: the last ${chain.checkedLinks} link${chain.checkedLinks === 1 ? "" : "s"} hold (head ${chain.head ?? "none yet"})`;
  const restarted = chain.broken.restartedWith
    ? `a record of kind "chain" (id ${chain.broken.restartedWith}) now marks the break and the chain goes on from it`
    : "the marker record could not be written";
  return `AUDIT CHAIN BROKEN: ${chain.broken.problem}; ${restarted}; /healthz reports it until restart; run \`hookbox audit verify\` to check the whole log`;
}

/** How long a stopping daemon lets the export buffers drain (what is left is in the local file). */
const EXPORT_DRAIN_MS = 2000;

/** The audit export, when the operator file configures one; a target that cannot be set up is logged and left out. */
async function openExport(
  config: OperatorFile["audit"]["export"],
  host: RuntimeHost,
  version: string,
  log: (line: string) => void,
): Promise<AuditExport | undefined> {
  if (!config) return undefined;
  try {
    const exporter = await startAuditExport(config, { sockets: host.sockets, hostname: host.hostname(), pid: host.pid, version });
    log(describeExport(config));
    return exporter;
  } catch (error) {
    log(`the audit export cannot start (${errorMessage(error)}): records stay in the local audit log only`);
    return undefined;
  }
}

/**
 * Each batch's chain head to the system log, one at a time in the order written (a head sent
 * late is still a head); a system log that does not take one is logged once until it does again.
 */
function anchorInSystemLog(
  host: RuntimeHost,
  sink: AuditLog,
  log: string,
  config: SystemLogConfig,
  say: (line: string) => void,
): (entries: readonly AuditEntry[]) => void {
  let queue: Promise<void> = Promise.resolve();
  let failing = false;
  return () => {
    const head = sink.stats().chain.head;
    if (head === undefined) return;
    const at = new Date().toISOString();
    queue = queue.then(async () => {
      const failed = await sendHead(
        host.sockets,
        config,
        { v: 1, uid: host.uid() ?? null, log, head, at },
        { hostname: host.hostname(), pid: host.pid },
      );
      if (failed && !failing) say(failed);
      failing = failed !== undefined;
    });
  };
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

async function health(
  who: Pick<HealthReport, "version" | "identity" | "pid">,
  pool: Executor,
  probe: HandlerSpec,
  evaluator: Evaluator,
  audit: AuditLog,
  approvals: ApprovalStore,
): Promise<HealthReport> {
  const started = performance.now();
  const outcome = await pool.invoke(probe, { n: 41 }, { ...DEFAULT_LIMITS, memoryBytes: 4 * MiB, timeoutMs: 2000 }, () =>
    Promise.reject(new Error("no host calls")),
  );
  const sandboxOk = outcome.ok && (outcome.value as { n?: number }).n === 42;
  const sets = await Promise.all(evaluator.hookSets.projects().map((project) => evaluator.hookSets.forProject(project)));
  const hookSets = sets.map(({ project, snapshot }) => ({
    project: project ?? null,
    version: snapshot.version,
    hooks: snapshot.hooks.length,
    broken: snapshot.broken.map((entry) => ({
      id: entry.id,
      file: entry.file,
      on_error: entry.onError,
      problems: entry.problems.map(formatDiagnostic),
    })),
    operator: snapshot.operatorStatus.state,
    ...(snapshot.operatorStatus.state !== "ok" ? { operator_problems: snapshot.operatorStatus.problems.map(formatDiagnostic) } : {}),
    problems: snapshot.diagnostics.map(formatDiagnostic),
    loaded_at: snapshot.loadedAt,
  }));
  const auditStats = audit.stats();
  const checks = {
    sandbox: {
      ok: sandboxOk,
      detail: { ms: Math.round((performance.now() - started) * 100) / 100, ...(outcome.ok ? {} : { error: outcome.failure }), pool: pool.stats() },
    },
    hooks: { ok: sets.every(({ snapshot }) => snapshot.healthy()), detail: hookSets },
    audit: { ok: !auditStats.failing && auditStats.chain.tail !== "broken", detail: auditStats },
    approvals: { ok: true, detail: { pending: approvals.list().length } },
  };
  return { v: 1, status: Object.values(checks).every((c) => c.ok) ? "ok" : "degraded", ...who, checks };
}
