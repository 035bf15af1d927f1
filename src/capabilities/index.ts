// src/capabilities owns the host APIs of handlers (hook.*) and the permission checks behind them; it
// must not import node:*, Bun or Deno (its I/O comes in as CapabilityIO) nor anything of dispatch or server.
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
