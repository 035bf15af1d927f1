// src/serve/api owns the HTTP API (Hono): routes, body limits, auth and error mapping. No listener
// lives here: src/platform adapters serve `createApp(deps).fetch` on a unix socket or loopback TCP.
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HookboxError } from "../../core/errors.ts";
import { constantTimeEqual } from "../../core/text/constant-time.ts";
import type { AppDeps } from "./deps.ts";
import { ownerOnly } from "./owner-only.ts";
import { errorResponse, toErrorResponse } from "./error-response.ts";
import { OPENAPI_ROUTE, openApiDocument } from "./openapi.ts";
import { consoleRoutes } from "./routes/console.ts";
import { eventRoutes } from "./routes/events.ts";
import { hookRoutes } from "./routes/hooks.ts";
import { daemonRoutes } from "./routes/daemon.ts";
import { operationRoutes } from "./routes/operations.ts";
import { route } from "./routes/spec.ts";

export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  const countError = (code: string): void => deps.metrics.recordHttpError(code);

  if (deps.ownerUid !== undefined) app.use("*", ownerOnly(deps.ownerUid, countError));
  if (deps.bearerToken) {
    const expected = `Bearer ${deps.bearerToken}`;
    app.use("*", async (c, next) => {
      if (!constantTimeEqual(c.req.header("authorization") ?? "", expected)) {
        countError("unauthorized");
        return errorResponse(c, "unauthorized", "missing or wrong bearer token (Authorization: Bearer <token from the daemon's token file>)");
      }
      await next();
    });
  }
  // The agents' route reads its body itself: past the limit it still answers (by the fail-closed rule).
  const limit = bodyLimit({
    maxSize: deps.bodyLimitBytes,
    onError: (c) => {
      countError("request_too_large");
      return errorResponse(c, "request_too_large", `the request body is larger than ${deps.bodyLimitBytes} bytes`);
    },
  });
  app.use("*", (c, next) => (c.req.path.startsWith("/v1/agents/") ? next() : limit(c, next)));
  eventRoutes(app, deps);
  hookRoutes(app, deps);
  operationRoutes(app, deps);
  daemonRoutes(app, deps);
  consoleRoutes(app, deps);
  let document: unknown;
  route(app, OPENAPI_ROUTE, (c) => c.json((document ??= openApiDocument(deps.version)) as Record<string, unknown>));
  app.notFound((c) => {
    countError("not_found");
    return errorResponse(c, "not_found", `no route ${c.req.method} ${new URL(c.req.url).pathname}`);
  });
  app.onError((error, c) => toErrorResponse(c, error instanceof HookboxError ? error : error, countError));
  return app;
}
