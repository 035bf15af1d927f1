import type { TriggerRunner } from "../triggers/index.ts";
import type { ApprovalStore } from "../../decide/approvals/store.ts";
import type { RunQuery, RunsRead } from "../../decide/audit/read.ts";
import type { Evaluator } from "../../decide/evaluator.ts";
import type { HookSetIdentity } from "../../decide/identity.ts";
import type { Metrics } from "../../decide/metrics/metrics.ts";
import type { DaemonInfoV1 } from "../../core/wire/daemon.ts";
import type { HealthV1 } from "../../core/wire/health.ts";

/** GET /healthz's answer (src/core/wire/health.ts). degraded: it answers, but not as configured (a broken hook, a replaced operator file, an audit log failing). */
export type HealthReport = HealthV1;

/** The daemon's lifecycle, as its routes see it. */
export interface DaemonControl {
  info(): Promise<DaemonInfoV1>;
  /** Stop now (what is in flight finishes first). */
  stop(reason: string): void;
  /** Exit once idle for a short while (a newer build took over). */
  retire(reason: string): void;
  /** An emit of another hook set asked (409): an auto-started daemon of an older build retires for a newer one. */
  refused(callerIdentity: unknown): void;
  /** An event was answered (its decision record's event, session and project): sessions open and close, a starting session's project is warmed. */
  answered?(event: { readonly event_type: string; readonly session_id: string; readonly project?: string }): void;
}

/** What the app needs; it owns no listener and no resource lifetimes (the daemon does). */
export interface AppDeps {
  readonly version: string;
  readonly evaluator: Evaluator;
  /** What this daemon resolves hook sets from: `emit` is answered only when it resolves from the same. */
  readonly identity: HookSetIdentity;
  readonly approvals: ApprovalStore;
  readonly runs: (query: RunQuery) => Promise<RunsRead>;
  readonly metrics: Metrics;
  readonly health: () => Promise<HealthReport>;
  /**
   * The uid the daemon serves: a connection whose peer credentials name another uid is refused
   * (listeners that cannot read them leave this to the socket's permissions).
   */
  readonly ownerUid?: number;
  /** The web console, when this daemon serves one: `hookbox console` asks it for a login link. */
  readonly console?: { loginUrl(): string };
  /** Requests must carry `Authorization: Bearer <token>` (the loopback TCP listener). */
  readonly bearerToken?: string;
  readonly bodyLimitBytes: number;
  /** Absent in tests of the routes alone: /v1/daemon answers 404 then. */
  readonly daemon?: DaemonControl;
  /** The daemon's trigger runner: a manual fire of a scheduled or watching hook goes through it (its injections are queued). */
  readonly triggers?: Pick<TriggerRunner, "fire">;
}
