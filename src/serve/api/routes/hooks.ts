import type { Context, Hono } from "hono";
import { z } from "zod";
import { formatDiagnostic } from "../../../hooks/config/diagnostic.ts";
import { HookboxError } from "../../../core/errors.ts";
import { hasTriggers } from "../../../hooks/config/resolve.ts";
import { parseEvent } from "../../../core/events/parse.ts";
import { registration, registrationByEvent } from "../../../hooks/registry/registration.ts";
import { decisionSchema } from "../../../core/wire/decision.ts";
import { nativeEventSchema } from "../../../core/wire/event.ts";
import { hookRegistrationSchema, hooksQuerySchema, hooksSchema, type HooksV1 } from "../../../core/wire/hooks.ts";
import { firedRunSchema } from "../../../core/wire/runs.ts";
import type { AppDeps } from "../deps.ts";
import { readJson } from "./body.ts";
import { parseInput, route, type RouteSpec } from "./spec.ts";

const HOOK_ID = z.object({ id: z.string().describe("The hook's id.") });

export const HOOKS_ROUTE: RouteSpec = {
  method: "get",
  path: "/v1/hooks",
  operationId: "listHooks",
  tag: "hooks",
  summary: "The hook set: what runs for which event, broken hooks included",
  query: hooksQuerySchema,
  responses: { 200: { description: "The hook set.", schema: hooksSchema } },
  errors: ["event_invalid"],
};

export const HOOK_ROUTE: RouteSpec = {
  method: "get",
  path: "/v1/hooks/:id",
  operationId: "getHook",
  tag: "hooks",
  summary: "One hook as registered",
  params: HOOK_ID,
  query: hooksQuerySchema,
  responses: { 200: { description: "The hook.", schema: hookRegistrationSchema } },
  errors: ["event_invalid", "not_found"],
};

export const FIRE_ROUTE: RouteSpec = {
  method: "post",
  path: "/v1/hooks/:id/fire",
  operationId: "fireHook",
  tag: "hooks",
  summary: "Run one hook on an event, whatever its matcher and cooldown",
  description:
    "The event's event_type defaults to the hook's first event and its session_id to \"manual\"; its cwd (else ?project=) picks the project whose hook set holds the hook. A hook with a schedule or a watch runs as its trigger would and answers with its run (FiredRunV1); any other answers with its decision.",
  params: HOOK_ID,
  query: hooksQuerySchema,
  body: { schema: nativeEventSchema, description: "The event (may be empty).", required: false },
  responses: {
    200: {
      description:
        "The hook's decision; for a hook with a schedule or a watch, its triggered run (its context queued for the project's next agent event).",
      schema: z.union([decisionSchema, firedRunSchema]),
    },
  },
  errors: ["event_invalid", "not_found", "request_too_large"],
};

export const HOOK_ROUTES: readonly RouteSpec[] = [HOOKS_ROUTE, HOOK_ROUTE, FIRE_ROUTE];

/** The hook set of `?project=/abs/path` (resolved up to its root as an event's cwd would be), or the user's when none is given. */
async function hookSetOf(c: Context, deps: AppDeps) {
  const { project } = parseInput(hooksQuerySchema, c.req.query(), "query");
  return deps.evaluator.hookSets.forEvent({ ...(project ? { cwd: project } : {}) });
}

export function hookRoutes(app: Hono, deps: AppDeps): void {
  route(app, HOOKS_ROUTE, async (c) => {
    const { project, snapshot } = await hookSetOf(c, deps);
    const body: HooksV1 = {
      v: 1,
      ...registrationByEvent(snapshot),
      project: project ?? null,
      registry_version: snapshot.version,
      loaded_at: snapshot.loadedAt,
      problems: snapshot.diagnostics.map(formatDiagnostic),
    };
    return c.json(body);
  });

  route(app, HOOK_ROUTE, async (c) => {
    const { snapshot } = await hookSetOf(c, deps);
    const id = c.req.param("id") ?? "";
    const entry = snapshot.get(id) ?? snapshot.broken.find((b) => b.id === id);
    if (!entry) throw new HookboxError("not_found", `no hook "${id}"`);
    return c.json(registration(entry));
  });

  /**
   * Manual fire: runs the hook now whatever its matcher and cooldown (as in the seed engine), and
   * records the run as its last. The body is the event (optional; `cwd` names the project, or
   * `?project=`). A hook with a schedule or a watch runs as its trigger would (its context queued
   * for the project's next agent event); others answer with the decision.
   */
  route(app, FIRE_ROUTE, async (c) => {
    const id = c.req.param("id") ?? "";
    const body = (await c.req.text()).trim() ? await readJson(c) : {};
    if (body === null || typeof body !== "object" || Array.isArray(body)) throw new HookboxError("event_invalid", "the event must be a JSON object");
    const record = body as Record<string, unknown>;
    const query = c.req.query("project");
    if (query !== undefined && !query.startsWith("/"))
      throw new HookboxError("event_invalid", `project must be an absolute path, got ${query}`, { field: "project" });
    const cwd = typeof record.cwd === "string" ? record.cwd : query;
    const { project, snapshot } = await deps.evaluator.hookSets.forEvent({ ...(cwd !== undefined ? { cwd } : {}) });
    const hook = snapshot.get(id);
    if (!hook) throw new HookboxError("not_found", `no hook "${id}" in ${project ?? "the user's hooks"}`);
    const given = Object.keys(record).length > 0;
    if (deps.triggers && hasTriggers(hook.definition)) {
      const event = given
        ? parseEvent({ session_id: "manual", ...(cwd !== undefined ? { cwd } : {}), ...record, event_type: record.event_type ?? "manual" })
        : undefined;
      const fired = await deps.triggers.fire(project, id, event);
      if (!fired) throw new HookboxError("not_found", `no hook "${id}"`);
      return c.json({ v: 1, hook_id: id, ...fired });
    }
    const event = parseEvent({
      session_id: "manual",
      ...(cwd !== undefined ? { cwd } : {}),
      ...record,
      event_type: record.event_type ?? hook.definition.events[0] ?? "manual",
    });
    const result = await deps.evaluator.fire(id, event);
    if (!result) throw new HookboxError("not_found", `no hook "${id}"`);
    return c.json(result.decision);
  });
}
