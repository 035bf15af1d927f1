import { z } from "zod";
import type { Wire } from "./readonly.ts";

/** GET /v1/runs's query: every field optional, checked once (src/serve/api/routes/operations.ts). */
export const runQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(10_000).default(50).describe("At most this many, newest first (1–10 000, default 50)."),
  hook: z.string().optional().describe("Only this hook's runs."),
  status: z.enum(["completed", "failed", "skipped", "denied"]).optional(),
  event: z.string().optional().describe("Only runs for this native event type."),
  would_block: z
    .stringbool()
    .optional()
    .describe("Only the runs of hooks in shadow mode (mode: monitor) that would have denied or asked: what they would block once promoted."),
});

export type RunQueryV1 = z.input<typeof runQuerySchema>;

export const auditRecordSchema = z
  .object({
    v: z.literal(1),
    kind: z.literal("run").optional().describe("Records written before decisions were audited have none: they are runs."),
    id: z.string(),
    event_id: z.string().describe("Shared by every run of one event, and its decision record."),
    hook_id: z.string(),
    event_type: z.string(),
    session_id: z.string(),
    trigger_reason: z.string().describe("Why the hook ran: which event and matcher, or a manual fire."),
    trigger: z
      .enum(["event", "manual", "periodic", "watch", "background"])
      .optional()
      .describe("What started it (records before triggers have none: events)."),
    run_id: z
      .string()
      .optional()
      .describe("One run of a triggered hook across its records: a long run is recorded `running` first, then again when it ends."),
    event_digest: z.string().optional().describe("sha256:<hex> of the event the hook saw, as its decision record's."),
    event: z.unknown().optional().describe("A triggered run's event, secrets redacted, size-capped."),
    steps: z.unknown().optional().describe("A declarative hook's step results, secrets redacted, size-capped."),
    llm: z
      .array(
        z.object({
          endpoint: z.string(),
          api: z.string(),
          model: z.string(),
          max_tokens: z.number(),
          json_schema: z.boolean(),
          system: z.string(),
          prompt: z.string(),
          answer: z.string().optional(),
          outcome: z.enum(["answered", "invalid", "failed"]),
          error: z.string().optional(),
          tokens: z.object({ input: z.number(), output: z.number(), estimated: z.boolean() }),
          attempts: z.number(),
          duration_ms: z.number(),
        }),
      )
      .optional()
      .describe("Its model calls (hook.llm.complete), secrets redacted."),
    status: z.enum(["completed", "failed", "skipped", "denied", "running"]),
    reason: z.string().optional(),
    error_code: z.string().optional(),
    action: z.enum(["continue", "deny", "modify", "inject_context", "ask_user"]).optional(),
    phase: z.literal("transform").optional(),
    duration_ms: z.number(),
    started_at: z.string(),
    completed_at: z.string(),
    injections: z.array(z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string(), truncated: z.boolean() })),
    host_calls: z.array(
      z.object({
        capability: z.string(),
        target: z.string(),
        outcome: z.enum(["allowed", "denied", "error"]),
        duration_ms: z.number(),
        detail: z.string().optional(),
      }),
    ),
    logs: z.array(z.object({ level: z.enum(["debug", "info", "warn", "error"]), message: z.string() })),
    follow_ups: z
      .array(
        z.object({
          kind: z.string(),
          payload: z.record(z.string(), z.unknown()).optional(),
          status: z.enum(["queued", "executed", "refused", "failed"]),
          detail: z.string().optional(),
          exit_code: z.number().optional(),
          stdout: z.string().optional(),
        }),
      )
      .optional()
      .describe(
        "The result's follow_up_actions and what became of each: run_command executed under the hook's run grant or refused, the others queued for the caller.",
      ),
    stats: z.object({ cpu_ms: z.number(), heap_bytes: z.number(), cold_start: z.boolean() }).optional(),
    notes: z.array(z.string()).optional(),
    mode: z.literal("monitor").optional().describe("A hook in shadow mode (hooks.<id>.mode: monitor): nothing it returned reached the agent."),
    would: z
      .object({ decision: z.enum(["allow", "deny", "ask", "modify"]), reason: z.string().optional() })
      .optional()
      .describe("What a monitored hook would have done had it been on."),
  })
  .meta({ id: "AuditRecordV1", description: "One hook run, as the audit log holds it." });

/** POST /v1/hooks/{id}/fire for a hook with a schedule or a watch: the run it started, as its trigger would. */
export const firedRunSchema = z
  .object({
    v: z.literal(1),
    hook_id: z.string(),
    status: z.string().describe("The run's status when the answer left (running for a long run)."),
    run_id: z.string(),
    records: z.array(auditRecordSchema),
  })
  .meta({ id: "FiredRunV1", description: "A triggered hook's run, started by hand; its context is queued for the project's next agent event." });

export const runsSchema = z
  .object({
    v: z.literal(1),
    runs: z.array(auditRecordSchema).describe("Newest first."),
    skipped_lines: z.number().int().describe("Lines of the log that were not a v1 record (a reader never stops on one)."),
  })
  .meta({ id: "RunsV1", description: "Hook runs from the audit log." });

export type AuditRecordWireV1 = Wire<typeof auditRecordSchema>;
export type RunsV1 = Wire<typeof runsSchema>;
export type FiredRunV1 = Wire<typeof firedRunSchema>;
