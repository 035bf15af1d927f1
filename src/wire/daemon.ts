// The daemon's own state on the wire: GET /v1/daemon (hookbox daemon status, doctor), and the
// requests that stop it or retire it. Pure: no runtime APIs (emit's lean path may import it).
import type { HookSetIdentity } from "../evaluator/identity.ts";

/** Who started the daemon: a person (`hookbox serve`), or `emit` finding none (auto-started). */
export type DaemonOrigin = "serve" | "auto";

export interface DaemonInfoV1 {
  readonly v: 1;
  readonly pid: number;
  readonly version: string;
  readonly identity: HookSetIdentity;
  readonly origin: DaemonOrigin;
  readonly socket: string;
  readonly started_at: string;
  /** Exits after this long without events; null: never (a `serve` without --idle-exit). */
  readonly idle_exit_seconds: number | null;
  /** The last event answered (or started), null before the first. */
  readonly last_event_at: string | null;
  readonly events: number;
  readonly in_flight: number;
  /** Projects whose hook sets are loaded now (null: the user's hooks only). */
  readonly projects: readonly (string | null)[];
  /** "uid": each connection's peer uid is checked against the owner's; "permissions": the socket's modes alone keep others out. */
  readonly peer_check: "uid" | "permissions";
  /** Set once asked to go (a newer build took over, auto-start turned off): it exits once idle for `idle_exit_seconds`. */
  readonly retiring: string | null;
  readonly rss_bytes: number | null;
}

/** How long a retired daemon still waits for events before it exits: a client of its build still using it keeps it. */
export const RETIRED_IDLE_SECONDS = 60;

export const DAEMON_ROUTES = { info: "/v1/daemon", stop: "/v1/daemon/stop", retire: "/v1/daemon/retire" } as const;
