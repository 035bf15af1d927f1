import type { Hono } from "hono";
import { HookboxError } from "../../../core/errors.ts";
import { daemonInfoSchema, daemonRetireSchema, daemonRetiringSchema, daemonStoppingSchema } from "../../../core/wire/daemon-schema.ts";
import { DAEMON_ROUTES, type DaemonInfoV1 } from "../../../core/wire/daemon.ts";
import type { AppDeps } from "../deps.ts";
import { readJson } from "./body.ts";
import { route, type RouteSpec } from "./spec.ts";

const NOT_A_DAEMON = "not_found: the server is not a daemon process (an app served in-process has no lifecycle).";

export const DAEMON_INFO_ROUTE: RouteSpec = {
  method: "get",
  path: DAEMON_ROUTES.info,
  operationId: "daemonInfo",
  tag: "daemon",
  summary: "The daemon's own state (hookbox daemon status)",
  description: NOT_A_DAEMON,
  responses: { 200: { description: "Its state.", schema: daemonInfoSchema } },
  errors: ["not_found"],
};

export const DAEMON_STOP_ROUTE: RouteSpec = {
  method: "post",
  path: DAEMON_ROUTES.stop,
  operationId: "stopDaemon",
  tag: "daemon",
  summary: "Stop the daemon (what is in flight finishes first, this answer included)",
  description: NOT_A_DAEMON,
  responses: { 200: { description: "Stopping.", schema: daemonStoppingSchema } },
  errors: ["not_found"],
};

export const DAEMON_RETIRE_ROUTE: RouteSpec = {
  method: "post",
  path: DAEMON_ROUTES.retire,
  operationId: "retireDaemon",
  tag: "daemon",
  summary: "Retire the daemon: it exits once idle (a newer build took over)",
  description: `${NOT_A_DAEMON} A reason that is not a string of at most 500 characters is replaced by "asked to retire".`,
  body: { schema: daemonRetireSchema, description: "Why.", required: false },
  responses: { 200: { description: "Retiring.", schema: daemonRetiringSchema } },
  errors: ["not_found", "request_too_large"],
};

export const DAEMON_ROUTE_SPECS: readonly RouteSpec[] = [DAEMON_INFO_ROUTE, DAEMON_STOP_ROUTE, DAEMON_RETIRE_ROUTE];

/** The daemon's own state and its end: GET /v1/daemon, POST /v1/daemon/stop, POST /v1/daemon/retire. */
export function daemonRoutes(app: Hono, deps: AppDeps): void {
  const control = (): NonNullable<AppDeps["daemon"]> => {
    if (!deps.daemon) throw new HookboxError("not_found", "this server is not a daemon process (no lifecycle to show or end)");
    return deps.daemon;
  };

  route(app, DAEMON_INFO_ROUTE, async (c) => c.json((await control().info()) satisfies DaemonInfoV1));

  // The answer leaves first: stopping waits for requests in flight, this one included.
  route(app, DAEMON_STOP_ROUTE, (c) => {
    control().stop("asked to stop (POST /v1/daemon/stop)");
    return c.json({ v: 1, stopping: true });
  });

  route(app, DAEMON_RETIRE_ROUTE, async (c) => {
    // A successor retiring an older build must succeed whatever it sends: a bad reason is replaced, not refused.
    const read = daemonRetireSchema.safeParse(await readJson(c).catch(() => undefined));
    const reason = (read.success ? read.data.reason : undefined) ?? "asked to retire";
    control().retire(reason);
    return c.json({ v: 1, retiring: reason });
  });
}
