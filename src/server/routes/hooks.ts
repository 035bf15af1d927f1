import type { Hono } from "hono";
import { registration, registrationByEvent } from "../../cli/list.ts";
import { formatDiagnostic } from "../../config/diagnostics.ts";
import { HookboxError } from "../../errors.ts";
import { parseEvent } from "../../events/parse.ts";
import type { AppDeps } from "../deps.ts";
import { readJson } from "./body.ts";

export function hookRoutes(app: Hono, deps: AppDeps): void {
  app.get("/v1/hooks", (c) => {
    const snapshot = deps.registry.current();
    return c.json({
      ...registrationByEvent(snapshot.hooks, snapshot.eventTypes(), (e) => snapshot.registeredFor(e)),
      registry_version: snapshot.version,
      loaded_at: snapshot.loadedAt,
      problems: snapshot.diagnostics.map(formatDiagnostic),
    });
  });

  app.get("/v1/hooks/:id", (c) => {
    const hook = deps.registry.current().get(c.req.param("id"));
    if (!hook) throw new HookboxError("not_found", `no hook "${c.req.param("id")}"`);
    return c.json(registration(hook));
  });

  /** Manual fire: runs the hook on the given event whatever its matcher and cooldown (as in the seed engine). */
  app.post("/v1/hooks/:id/fire", async (c) => {
    const id = c.req.param("id");
    const hook = deps.registry.current().get(id);
    if (!hook) throw new HookboxError("not_found", `no hook "${id}"`);
    const body = (await c.req.text()).trim() ? await readJson(c) : {};
    if (body === null || typeof body !== "object" || Array.isArray(body)) throw new HookboxError("event_invalid", "the event must be a JSON object");
    const record = body as Record<string, unknown>;
    const event = parseEvent({ session_id: "manual", ...record, event_type: record.event_type ?? hook.definition.events[0] });
    const result = await deps.service.fire(id, event);
    if (!result) throw new HookboxError("not_found", `no hook "${id}"`);
    return c.json(result.decision);
  });
}
