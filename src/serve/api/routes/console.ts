import type { Hono } from "hono";
import { HookboxError } from "../../../core/errors.ts";
import { consoleUrlSchema } from "../../../core/wire/daemon-schema.ts";
import type { AppDeps } from "../deps.ts";
import { route, type RouteSpec } from "./spec.ts";

export const CONSOLE_URL_ROUTE: RouteSpec = {
  method: "post",
  path: "/v1/console/url",
  operationId: "consoleUrl",
  tag: "daemon",
  summary: "A fresh one-time login link to the web console (hookbox console)",
  description:
    "On the owner-only unix socket only (the TCP listener does not serve it); not_found when the daemon serves no console (`hookbox serve --console`).",
  responses: { 200: { description: "The link.", schema: consoleUrlSchema } },
  errors: ["not_found"],
};

/**
 * POST /v1/console/url: a fresh one-time login link to the web console, for `hookbox console`.
 * Served on the owner-only unix socket only (the daemon leaves it out of the TCP listener's app);
 * the console itself is never served here.
 */
export function consoleRoutes(app: Hono, deps: AppDeps): void {
  route(app, CONSOLE_URL_ROUTE, (c) => {
    if (!deps.console) throw new HookboxError("not_found", "this daemon serves no console: start it with `hookbox serve --console`");
    return c.json({ v: 1, url: deps.console.loginUrl() });
  });
}
