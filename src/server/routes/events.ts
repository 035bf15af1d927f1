import type { Hono } from "hono";
import { HookboxError } from "../../errors.ts";
import { parseEvent } from "../../events/parse.ts";
import type { AppDeps } from "../deps.ts";
import { readJson } from "./body.ts";

/** POST /v1/events/:event_type — the native contract: an event in, the aggregated Decision out. */
export function eventRoutes(app: Hono, deps: AppDeps): void {
  app.post("/v1/events/:event_type", async (c) => {
    const event = parseEvent(await readJson(c), c.req.param("event_type"));
    const { decision } = await deps.service.evaluate(event);
    return c.json(decision);
  });

  /** Claude Code's `type: "http"` hook: its hook JSON in, its JSON answer out (always 200: a non-2xx is a non-blocking error to Claude). */
  app.post("/v1/agents/claude", async (c) => {
    const claude = deps.agents.claude;
    if (!claude) throw new HookboxError("not_found", "the Claude Code protocol adapter is not available in this build");
    const event = claude.decode(await readJson(c));
    const { decision } = await deps.service.evaluate(event);
    return c.json(claude.encodeHttp(decision, event) as Record<string, unknown>);
  });
}
