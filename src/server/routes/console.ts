import type { Hono } from "hono";
import { HookboxError } from "../../errors.ts";
import type { AppDeps } from "../deps.ts";

/**
 * POST /v1/console/url: a fresh one-time login link to the web console, for `hookbox console`.
 * Served on the owner-only unix socket only (the daemon leaves it out of the TCP listener's app);
 * the console itself is never served here.
 */
export function consoleRoutes(app: Hono, deps: AppDeps): void {
  app.post("/v1/console/url", (c) => {
    if (!deps.console) throw new HookboxError("not_found", "this daemon serves no console: start it with `hookbox serve --console`");
    return c.json({ v: 1, url: deps.console.loginUrl() });
  });
}
