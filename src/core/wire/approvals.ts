import { z } from "zod";
import type { Wire } from "./readonly.ts";

export const pendingApprovalSchema = z
  .object({
    id: z.string(),
    hook_id: z.string(),
    event_type: z.string(),
    session_id: z.string(),
    tool_name: z.string().optional(),
    subject: z.string().describe("What is being approved, in a line (the command, the file path …)."),
    prompt: z.string(),
    options: z.array(z.string()),
    default: z.enum(["allow", "deny"]).describe("What applies at expires_at."),
    created_at: z.string(),
    expires_at: z.string(),
  })
  .meta({ id: "PendingApprovalV1", description: "An ask held by the daemon while the caller of POST /v1/events waits." });

export const approvalsSchema = z
  .object({ v: z.literal(1), approvals: z.array(pendingApprovalSchema) })
  .meta({ id: "ApprovalsV1", description: "The approvals pending now." });

export const approvalVerdictSchema = z
  .object({
    decision: z
      .enum(["allow", "deny", "allow_always"])
      .describe("allow_always: allow, and every later ask of the same hook for the same tool in this session."),
    via: z
      .enum(["cli", "api"])
      .optional()
      .describe('Where the user answered, recorded with the verdict: "cli" for hookbox approve/deny; default "api".'),
  })
  .meta({ id: "ApprovalVerdictV1", description: "The user's answer to a pending approval." });

export const approvalResolvedSchema = z
  .object({ v: z.literal(1), id: z.string(), decision: z.enum(["allow", "deny", "allow_always"]) })
  .meta({ id: "ApprovalResolvedV1", description: "The verdict, recorded: the held event is answered with it." });

export type PendingApprovalV1 = Wire<typeof pendingApprovalSchema>;
export type ApprovalsV1 = Wire<typeof approvalsSchema>;
export type ApprovalVerdictV1 = z.infer<typeof approvalVerdictSchema>["decision"];
export type ApprovalResolvedV1 = Wire<typeof approvalResolvedSchema>;
