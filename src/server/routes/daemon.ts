import type { Hono } from "hono";
import { HookboxError } from "../../errors.ts";
import { DAEMON_ROUTES } from "../../wire/daemon.ts";
import type { AppDeps } from "../deps.ts";
import { readJson } from "./body.ts";

/** The daemon's own state and its end: GET /v1/daemon, POST /v1/daemon/stop, POST /v1/daemon/retire. */
export function daemonRoutes(app: Hono, deps: AppDeps): void {
  const control = (): NonNullable<AppDeps["daemon"]> => {
    if (!deps.daemon) throw new HookboxError("not_found", "this server is not a daemon process (no lifecycle to show or end)");
    return deps.daemon;
  };

  app.get(DAEMON_ROUTES.info, async (c) => c.json(await control().info()));

  // The answer leaves first: stopping waits for requests in flight, this one included.
  app.post(DAEMON_ROUTES.stop, (c) => {
    control().stop("asked to stop (POST /v1/daemon/stop)");
    return c.json({ v: 1, stopping: true });
  });

  app.post(DAEMON_ROUTES.retire, async (c) => {
    const body = (await readJson(c)) as { reason?: unknown };
    const reason = typeof body?.reason === "string" && body.reason.length <= 500 ? body.reason : "asked to retire";
    control().retire(reason);
    return c.json({ v: 1, retiring: reason });
  });
}
