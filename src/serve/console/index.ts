// src/serve/console owns the operator's web console; it must not import src/platform's adapters, src/serve/api or src/serve/daemon.
// Pages rendered on the server (hono/jsx), live over SSE, served on loopback TCP with a one-time login link. It reads the
// daemon's components and acts only through them (the approval store, the evaluator).
import type { PoolStats } from "../../../sandbox/index.ts";
import type { ApprovalStore } from "../../decide/approvals/store.ts";
import type { ExportStats } from "../../decide/audit/export/index.ts";
import type { AppendListener, AuditStats } from "../../decide/audit/sink.ts";
import type { Evaluator } from "../../decide/evaluator.ts";
import type { FileHost, NetHost } from "../../platform/index.ts";
import { createConsoleApp } from "./app.tsx";
import { ConsoleAuth } from "./auth.ts";
import { HealthSeries } from "./health-series.ts";
import { LiveHub } from "./live.ts";
import type { Answered } from "./pages/approvals.tsx";
import { groupByEvent, readRecentEntries } from "./recent.ts";
import { unguardedWarnings } from "./unguarded.ts";
import { readSavedReports } from "../../decide/replay/saved.ts";

export interface ConsoleOptions {
  readonly hostname: string;
  /** 0: a free port (the URL says which). */
  readonly port: number;
  readonly net: NetHost;
  readonly fs: FileHost;
  readonly audit: { onAppend(listener: AppendListener): () => void; stats(): AuditStats };
  readonly exports: () => readonly ExportStats[];
  readonly approvals: ApprovalStore;
  readonly evaluator: Pick<Evaluator, "hookSets" | "fire">;
  readonly sandbox: () => PoolStats;
  readonly version: string;
  readonly pid: number;
  /** The operator file the daemon reads: where the console tells the person to enable guards. */
  readonly operatorFile: string;
  /** The data directory: where `hookbox replay --save` keeps the reports the console lists. */
  readonly dataDir?: string;
}

export interface ConsoleServer {
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  /** A fresh one-time login URL (spent by its first use, or after 10 minutes). */
  loginUrl(): string;
  close(): Promise<void>;
}

/** Approvals answered since start that the Approvals page lists. */
const ANSWERED_KEPT = 50;
/** How often the health page's figures are pushed to those watching it. */
const TICK_MS = 5000;

export async function startConsole(options: ConsoleOptions): Promise<ConsoleServer> {
  const auth = new ConsoleAuth();
  const hub = new LiveHub();
  const kills = (): number => {
    const stats = options.sandbox();
    return stats.timeoutKills + stats.cpuKills;
  };
  const health = new HealthSeries(kills);
  const auditPath = options.audit.stats().path;
  // The last hour's figures survive a restart: they are read back from the log.
  health.record(await readRecentEntries(options.fs, auditPath).catch(() => []));
  const answered: Answered[] = [];
  const offs = [
    options.audit.onAppend((entries) => {
      health.record(entries);
      hub.publish({ kind: "events", groups: groupByEvent(entries) });
    }),
    options.approvals.onChange((change) => {
      if (change.kind === "settled") {
        answered.unshift({ approval: change.approval, outcome: change.outcome, at: new Date().toISOString() });
        answered.length = Math.min(answered.length, ANSWERED_KEPT);
      }
      hub.publish({ kind: "approvals" });
    }),
  ];
  const tick = setInterval(() => {
    health.sampleKills();
    if (hub.subscribers() > 0) hub.publish({ kind: "tick" });
  }, TICK_MS);
  (tick as { unref?: () => void }).unref?.();

  let port = options.port;
  const app = createConsoleApp({
    auth,
    port: () => port,
    hub,
    recentEntries: () => readRecentEntries(options.fs, auditPath),
    approvals: options.approvals,
    answered: () => answered,
    hookSets: options.evaluator.hookSets,
    fire: (id, event) => options.evaluator.fire(id, event),
    health: () => {
      const sandbox = options.sandbox();
      return {
        points: health.points(),
        audit: options.audit.stats(),
        exports: options.exports(),
        sandbox: {
          workers: sandbox.size,
          busy: sandbox.workers.filter((w) => w.state === "busy").length,
          queued: sandbox.queued,
          kills: sandbox.timeoutKills + sandbox.cpuKills,
          crashes: sandbox.crashes,
        },
        pending: options.approvals.list().length,
      };
    },
    unguarded: async () =>
      unguardedWarnings(options.evaluator.hookSets, await readRecentEntries(options.fs, auditPath).catch(() => []), options.operatorFile),
    version: options.version,
    pid: options.pid,
    ...(options.dataDir !== undefined ? { replayReports: () => readSavedReports(options.fs, options.dataDir as string) } : {}),
  });
  let listener;
  try {
    listener = await options.net.serve(app.fetch, { hostname: options.hostname, port: options.port });
  } catch (error) {
    clearInterval(tick);
    for (const off of offs) off();
    throw error;
  }
  port = Number(/:(\d+)$/.exec(listener.address)?.[1] ?? options.port);
  const origin = `http://${options.hostname.includes(":") ? `[${options.hostname}]` : options.hostname}:${port}`;
  const served = listener;
  return {
    origin,
    loginUrl: () => `${origin}/login?token=${auth.mintLoginToken()}`,
    close: async () => {
      clearInterval(tick);
      for (const off of offs) off();
      hub.closeAll();
      await served.close(1000);
    },
  };
}
