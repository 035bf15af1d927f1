import type { ApprovalStore } from "../approvals/store.ts";
import type { RunQuery, RunsRead } from "../audit/read.ts";
import type { Decision, NativeEvent } from "../events/types.ts";
import type { Metrics } from "../metrics/metrics.ts";
import type { RegistrySnapshot } from "../registry/registry.ts";
import type { EventService } from "../service/events.ts";

/** An agent's HTTP hook contract (the request body is its hook JSON, the response its answer). */
export interface HttpAgentProtocol {
  decode(payload: unknown): NativeEvent;
  /** The JSON body to answer with. */
  encodeHttp(decision: Decision, event: NativeEvent): unknown;
}

export interface HealthReport {
  readonly status: "ok" | "degraded";
  readonly version: string;
  readonly checks: Record<string, { readonly ok: boolean; readonly detail: unknown }>;
}

/** What the app needs; it owns no listener and no resource lifetimes (the daemon does). */
export interface AppDeps {
  readonly version: string;
  readonly service: EventService;
  readonly registry: { current(): RegistrySnapshot };
  readonly approvals: ApprovalStore;
  readonly runs: (query: RunQuery) => Promise<RunsRead>;
  readonly metrics: Metrics;
  readonly health: () => Promise<HealthReport>;
  readonly agents: { readonly claude?: HttpAgentProtocol };
  /** Requests must carry `Authorization: Bearer <token>` (the loopback TCP listener). */
  readonly bearerToken?: string;
  readonly bodyLimitBytes: number;
}
