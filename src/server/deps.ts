import type { ApprovalStore } from "../approvals/store.ts";
import type { RunQuery, RunsRead } from "../audit/read.ts";
import type { Evaluator } from "../evaluator/evaluator.ts";
import type { HookSetIdentity } from "../evaluator/identity.ts";
import type { Metrics } from "../metrics/metrics.ts";

export interface HealthReport {
  /** degraded: it answers, but not as configured (a broken hook, a replaced operator file, an audit log failing). */
  readonly status: "ok" | "degraded";
  readonly version: string;
  /** The build and the inputs this daemon resolves hook sets from (what `emit` must match to be answered). */
  readonly identity: HookSetIdentity;
  readonly pid: number;
  readonly checks: Record<string, { readonly ok: boolean; readonly detail: unknown }>;
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
  /** The web console, when this daemon serves one: `hookbox console` asks it for a login link. */
  readonly console?: { loginUrl(): string };
  /** Requests must carry `Authorization: Bearer <token>` (the loopback TCP listener). */
  readonly bearerToken?: string;
  readonly bodyLimitBytes: number;
}
