// The daemon's own state on the wire: GET /v1/daemon (hookbox daemon status, doctor), and the
// requests that stop it or retire it. Pure: no runtime APIs (emit's lean path may import it).
import type { daemonInfoSchema } from "./daemon-schema.ts";
import type { Wire } from "./readonly.ts";

/** GET /v1/daemon's answer (daemonInfoSchema in daemon-schema.ts, which this lean module does not load). */
export type DaemonInfoV1 = Wire<typeof daemonInfoSchema>;

/** The origin of a DaemonInfoV1. */
export type DaemonOrigin = DaemonInfoV1["origin"];

/** How long a retired daemon still waits for events before it exits: a client of its build still using it keeps it. */
export const RETIRED_IDLE_SECONDS = 60;

export const DAEMON_ROUTES = { info: "/v1/daemon", stop: "/v1/daemon/stop", retire: "/v1/daemon/retire" } as const;
