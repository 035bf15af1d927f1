import type { Context, Hono } from "hono";
import { formatDiagnostic } from "../../config/diagnostic.ts";
import { HookboxError } from "../../errors.ts";
import { parseEvent } from "../../events/parse.ts";
import { registration, registrationByEvent } from "../../registry/registration.ts";
import type { AppDeps } from "../deps.ts";
import { readJson } from "./body.ts";

/** The hook set of `?project=/abs/path` (resolved up to its root as an event's cwd would be), or the user's when none is given. */
async function hookSetOf(c: Context, deps: AppDeps) {
  const project = c.req.query("project");
  if (project !== undefined && !project.startsWith("/")) throw new HookboxError("event_invalid", `project must be an absolute path, got ${project}`, { field: "project" });
  return deps.evaluator.hookSets.forEvent({ ...(project ? { cwd: project } : {}) });
}

export function hookRoutes(app: Hono, deps: AppDeps): void {
  app.get("/v1/hooks", async (c) => {
    const { project, snapshot } = await hookSetOf(c, deps);
    return c.json({
      ...registrationByEvent(snapshot),
      project: project ?? null,
      registry_version: snapshot.version,
      loaded_at: snapshot.loadedAt,
      problems: snapshot.diagnostics.map(formatDiagnostic),
    });
  });

  app.get("/v1/hooks/:id", async (c) => {
    const { snapshot } = await hookSetOf(c, deps);
    const id = c.req.param("id");
    const entry = snapshot.get(id) ?? snapshot.broken.find((b) => b.id === id);
    if (!entry) throw new HookboxError("not_found", `no hook "${id}"`);
    return c.json(registration(entry));
  });

  /** Manual fire: runs the hook on the given event whatever its matcher and cooldown (as in the seed engine). */
  app.post("/v1/hooks/:id/fire", async (c) => {
    const id = c.req.param("id");
    const body = (await c.req.text()).trim() ? await readJson(c) : {};
    if (body === null || typeof body !== "object" || Array.isArray(body)) throw new HookboxError("event_invalid", "the event must be a JSON object");
    const record = body as Record<string, unknown>;
    const { snapshot } = await deps.evaluator.hookSets.forEvent({ ...(typeof record.cwd === "string" ? { cwd: record.cwd } : {}) });
    const hook = snapshot.get(id);
    if (!hook) throw new HookboxError("not_found", `no hook "${id}"`);
    const event = parseEvent({ session_id: "manual", ...record, event_type: record.event_type ?? hook.definition.events[0] });
    const result = await deps.evaluator.fire(id, event);
    if (!result) throw new HookboxError("not_found", `no hook "${id}"`);
    return c.json(result.decision);
  });
}
