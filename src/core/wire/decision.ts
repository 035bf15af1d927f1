import { z } from "zod";
import type { Wire } from "./readonly.ts";

const role = z.enum(["system", "user", "assistant"]);
const action = z.enum(["continue", "deny", "modify", "inject_context", "ask_user"]);

export const runSummarySchema = z
  .object({
    hook_id: z.string(),
    status: z.enum(["completed", "failed", "skipped", "denied"]),
    duration_ms: z.number().describe("Milliseconds."),
    reason: z.string().optional().describe("Why it was skipped, why it failed (the precise cause) or why it denied."),
    error_code: z.string().optional().describe("Stable code of a failure (sandbox_cpu, handler_threw …)."),
    action: action.optional(),
  })
  .meta({ id: "RunSummaryV1", description: "One matched hook's part in an event, skipped ones included." });

export const approvalRequestSchema = z
  .object({
    hook_id: z.string(),
    prompt: z.string(),
    options: z.array(z.string()),
    timeout_ms: z.number().int().describe("Milliseconds until the default applies."),
    default: z.enum(["allow", "deny"]),
  })
  .meta({ id: "ApprovalRequestV1", description: "What a hook that asked wants the user to decide." });

/**
 * The aggregated answer for one event. What each decision obliges the caller to do is in
 * docs/orchestrators.md: allow — go ahead, with `data` as the input when present; deny — do not
 * perform the action, tell the model `reason`; ask — put `approval.prompt` to the user (a hold on
 * POST /v1/events answers allow or deny instead).
 */
export const decisionSchema = z
  .object({
    v: z.literal(1),
    event_id: z.string().describe("The decision record's id in the audit log."),
    event_type: z.string(),
    decision: z.enum(["allow", "deny", "ask"]),
    reason: z.string().optional(),
    decided_by: z.string().optional().describe("The hook that denied or asked."),
    data: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("Present when a hook modified the input: the final tool_input (tool events) or data. The caller must use it instead of its own."),
    tool_response: z
      .unknown()
      .optional()
      .describe("Present when a hook the operator lets rewrite outputs changed a tool's output (PostToolUse): the model must see it instead."),
    context_injections: z.array(z.object({ hook_id: z.string(), role, content: z.string() })).describe("Context for the model, in order."),
    user_messages: z
      .array(z.object({ hook_id: z.string(), level: z.enum(["info", "warning", "error"]), message: z.string() }))
      .describe("For the user, never the model."),
    continue: z.boolean().describe("false: a hook asked the agent to halt after this event."),
    stop_reason: z.string().optional(),
    suppress_output: z.boolean().optional(),
    approval: approvalRequestSchema.optional(),
    suggested_abilities: z
      .array(z.object({ hook_id: z.string(), id: z.string(), reason: z.string().optional(), confidence: z.number().optional() }))
      .optional()
      .describe("Routing hints for orchestrators, with the hook each came from."),
    suggested_documents: z
      .array(z.object({ hook_id: z.string(), path: z.string(), reason: z.string().optional(), stage: z.string().optional() }))
      .optional(),
    new_intent: z
      .object({
        hook_id: z.string(),
        intent: z.string(),
        scope: z.string().optional(),
        topic: z.string().optional(),
        stage: z.string().optional(),
        signals: z.record(z.string(), z.unknown()).optional(),
      })
      .optional()
      .describe("A structured intent for the caller's knowledge routing."),
    follow_up_actions: z.array(z.object({ hook_id: z.string(), kind: z.string(), payload: z.record(z.string(), z.unknown()).optional() })).optional(),
    delivered_runs: z
      .array(z.object({ hook_id: z.string(), run_id: z.string(), trigger: z.string() }))
      .optional()
      .describe("Triggered runs (a schedule, a watch) whose queued context this answer delivers, in its context_injections."),
    runs: z.array(runSummarySchema),
  })
  .meta({ id: "DecisionV1", description: "Hookbox's answer for one event." });

export type DecisionV1 = Wire<typeof decisionSchema>;
