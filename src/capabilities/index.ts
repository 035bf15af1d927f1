// src/capabilities owns the handlers' host APIs (hook.*) and the checks behind them; it must not import src/hooks or anything above.
// Each capability owns the schema of its grant and its operator settings (grants/schema.ts, llm/schema.ts, notify/schema.ts)
// and reads the operator file through OperatorGrants; its I/O comes in as CapabilityIO, never node:*, Bun or Deno.
export { createCapabilityHost } from "./host.ts";
export type { CapabilityDeps } from "./capability.ts";
export { HOOK_API_DTS } from "./api-types.ts";
export { HOOK_API_METHODS } from "./types.ts";
export type { CapabilityHost, GrantRequest, HookApiMethod, HostCallRecord, InvocationCapabilities, PreparedGrants, PrepareResult } from "./types.ts";
export type { GuestErrorCode } from "./errors.ts";
export { formatReview } from "./review/index.ts";
export { summarizeGrants, type GrantSummary } from "./review/summary.ts";
export type { GrantReport, GrantReview, ReviewStatus } from "./review/types.ts";
export { grantKeys } from "./grants/keys.ts";
