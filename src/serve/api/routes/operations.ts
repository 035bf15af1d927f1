import type { Hono } from "hono";
import { z } from "zod";
import { HookboxError } from "../../../core/errors.ts";
import {
  approvalResolvedSchema,
  approvalVerdictSchema,
  approvalsSchema,
  type ApprovalResolvedV1,
  type ApprovalsV1,
} from "../../../core/wire/approvals.ts";
import { healthSchema, type HealthV1 } from "../../../core/wire/health.ts";
import { runQuerySchema, runsSchema, type RunsV1 } from "../../../core/wire/runs.ts";
import type { AppDeps } from "../deps.ts";
import { readJson } from "./body.ts";
import { parseInput, route, type RouteSpec } from "./spec.ts";

export const RUNS_ROUTE: RouteSpec = {
  method: "get",
  path: "/v1/runs",
  operationId: "listRuns",
  tag: "operations",
  summary: "Hook runs from the audit log, newest first",
  query: runQuerySchema,
  responses: { 200: { description: "The runs.", schema: runsSchema } },
  errors: ["event_invalid"],
};

export const APPROVALS_ROUTE: RouteSpec = {
  method: "get",
  path: "/v1/approvals",
  operationId: "listApprovals",
  tag: "approvals",
  summary: "The asks held now, waiting for a user's verdict",
  responses: { 200: { description: "The pending approvals.", schema: approvalsSchema } },
  errors: [],
};

export const RESOLVE_APPROVAL_ROUTE: RouteSpec = {
  method: "post",
  path: "/v1/approvals/:id",
  operationId: "resolveApproval",
  tag: "approvals",
  summary: "Answer a pending approval: the held event is answered with it",
  params: z.object({ id: z.string().describe("The pending approval's id.") }),
  body: { schema: approvalVerdictSchema, description: "The verdict.", required: true },
  responses: { 200: { description: "Recorded.", schema: approvalResolvedSchema } },
  errors: ["event_invalid", "not_found", "request_too_large"],
};

export const HEALTH_ROUTE: RouteSpec = {
  method: "get",
  path: "/healthz",
  operationId: "health",
  tag: "operations",
  summary: "Whether the daemon evaluates as configured",
  responses: {
    200: { description: "ok.", schema: healthSchema },
    503: { description: "degraded: it answers, but not as configured; checks say why.", schema: healthSchema },
  },
  errors: [],
};

export const METRICS_ROUTE: RouteSpec = {
  method: "get",
  path: "/metrics",
  operationId: "metrics",
  tag: "operations",
  summary: "Prometheus metrics",
  responses: { 200: { description: "The Prometheus text exposition format.", contentType: "text/plain; version=0.0.4; charset=utf-8" } },
  errors: [],
};

export const OPERATION_ROUTES: readonly RouteSpec[] = [RUNS_ROUTE, APPROVALS_ROUTE, RESOLVE_APPROVAL_ROUTE, HEALTH_ROUTE, METRICS_ROUTE];

/** Runs (the audit log), approvals, health and metrics. */
export function operationRoutes(app: Hono, deps: AppDeps): void {
  route(app, RUNS_ROUTE, async (c) => {
    const query = parseInput(runQuerySchema, c.req.query(), "query");
    const { records, skippedLines } = await deps.runs(query);
    return c.json({ v: 1, runs: records, skipped_lines: skippedLines } satisfies RunsV1);
  });

  route(app, APPROVALS_ROUTE, (c) => c.json({ v: 1, approvals: deps.approvals.list() } satisfies ApprovalsV1));

  route(app, RESOLVE_APPROVAL_ROUTE, async (c) => {
    const id = c.req.param("id") ?? "";
    const { decision, via } = parseInput(approvalVerdictSchema, await readJson(c), "body");
    if (!deps.approvals.resolve(id, decision, via ?? "api"))
      throw new HookboxError("not_found", `no pending approval "${id}" (answered, timed out, or unknown)`);
    return c.json({ v: 1, id, decision } satisfies ApprovalResolvedV1);
  });

  route(app, HEALTH_ROUTE, async (c) => {
    const report: HealthV1 = await deps.health();
    return c.json(report, report.status === "ok" ? 200 : 503);
  });

  route(app, METRICS_ROUTE, async (c) => c.body(await deps.metrics.text(), 200, { "content-type": deps.metrics.contentType() }));
}
