import type { Hono } from "hono";
import { HookboxError } from "../../errors.ts";
import type { AppDeps } from "../deps.ts";
import { readJson } from "./body.ts";

const STATUSES = new Set(["completed", "failed", "skipped", "denied"]);

/** Runs (the audit log), approvals, health and metrics. */
export function operationRoutes(app: Hono, deps: AppDeps): void {
  app.get("/v1/runs", async (c) => {
    const limitText = c.req.query("limit") ?? "50";
    const limit = Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new HookboxError("event_invalid", `limit must be a whole number from 1 to 10000, got ${limitText}`, { field: "limit" });
    const status = c.req.query("status");
    if (status && !STATUSES.has(status)) throw new HookboxError("event_invalid", `status must be one of ${[...STATUSES].join(", ")}, got ${status}`, { field: "status" });
    const hook = c.req.query("hook");
    const event = c.req.query("event");
    const { records, skippedLines } = await deps.runs({ limit, ...(hook ? { hook } : {}), ...(status ? { status } : {}), ...(event ? { event } : {}) });
    return c.json({ v: 1, runs: records, skipped_lines: skippedLines });
  });

  app.get("/v1/approvals", (c) => c.json({ v: 1, approvals: deps.approvals.list() }));

  app.post("/v1/approvals/:id", async (c) => {
    const body = (await readJson(c)) as { decision?: unknown; via?: unknown };
    const verdict = body?.decision;
    if (verdict !== "allow" && verdict !== "deny" && verdict !== "allow_always") {
      throw new HookboxError("event_invalid", 'decision must be "allow", "deny" or "allow_always"', { field: "decision" });
    }
    // Recorded with the answer; "console" is the console's own (it answers in-process, never here).
    const via = body.via ?? "api";
    if (via !== "cli" && via !== "api") throw new HookboxError("event_invalid", 'via must be "cli" or "api"', { field: "via" });
    if (!deps.approvals.resolve(c.req.param("id"), verdict, via)) throw new HookboxError("not_found", `no pending approval "${c.req.param("id")}" (answered, timed out, or unknown)`);
    return c.json({ v: 1, id: c.req.param("id"), decision: verdict });
  });

  app.get("/healthz", async (c) => {
    const report = await deps.health();
    return c.json(report, report.status === "ok" ? 200 : 503);
  });

  app.get("/metrics", async (c) => c.body(await deps.metrics.text(), 200, { "content-type": deps.metrics.contentType() }));
}
