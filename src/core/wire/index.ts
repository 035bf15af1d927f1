// src/core/wire owns the versioned shapes that cross the socket (zod schemas and their types); it must not import any other wing.
// Between Hookbox and its clients (the server, the OpenAPI document, hookbox/client, emit). Pure: no runtime APIs.
// agent-call.ts and errors.ts are lean (no zod) for emit's path.
export { agentAnswerSchema, agentCallReplySchema } from "./agent-call-schema.ts";
export { AGENT_CALL_HEADERS, HOOK_SET_MISMATCH, agentCallReplyOf, type AgentCallReplyV1 } from "./agent-call.ts";
export {
  approvalResolvedSchema,
  approvalVerdictSchema,
  approvalsSchema,
  pendingApprovalSchema,
  type ApprovalResolvedV1,
  type ApprovalVerdictV1,
  type ApprovalsV1,
  type PendingApprovalV1,
} from "./approvals.ts";
export { approvalRequestSchema, decisionSchema, runSummarySchema, type DecisionV1 } from "./decision.ts";
export { errorBodySchema } from "./error-body.ts";
export { ERROR_CODES, errorOfBody, isErrorCode, type ErrorBodyV1 } from "./errors.ts";
export { nativeEventSchema, type NativeEventV1 } from "./event.ts";
export { healthSchema, hookSetIdentitySchema, type HealthV1, type HookSetIdentityV1 } from "./health.ts";
export { hookRegistrationSchema, hooksQuerySchema, hooksSchema, type HookRegistrationV1, type HooksV1 } from "./hooks.ts";
export { auditRecordSchema, firedRunSchema, runQuerySchema, runsSchema, type FiredRunV1, type RunQueryV1, type RunsV1 } from "./runs.ts";
