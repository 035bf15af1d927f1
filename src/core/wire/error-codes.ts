/**
 * Every stable error code, as a list: what an error body's `error.code` may be (ErrorBodyV1),
 * listed in the OpenAPI document. Lean (no zod): `emit` and the client read error bodies with it.
 */
export const ERROR_CODES = [
  "usage",
  "file_unreadable",
  "config_invalid",
  "event_invalid",
  "request_too_large",
  "not_found",
  "unauthorized",
  "peer_refused",
  "conflict",
  "capability_denied",
  "daemon_unavailable",
  "audit_unavailable",
  "permission_denied",
  "os_error",
  "hook_set_mismatch",
  "signature_invalid",
  "consent_required",
  "llm_failed",
  "internal",
  "sandbox_cpu",
  "sandbox_memory",
  "sandbox_stack",
  "sandbox_timeout",
  "sandbox_result_size",
  "sandbox_log_size",
  "sandbox_host_calls",
  "handler_syntax",
  "handler_invalid",
  "handler_threw",
  "handler_result_invalid",
  "handler_hung",
  "sandbox_crashed",
  "sandbox_queue_full",
  "sandbox_closed",
] as const;

/** A stable error code as the wire carries it: the same union as ErrorCode in src/core/errors.ts (src/serve/api/error-response.ts holds them equal at compile time). */
export type ErrorCodeV1 = (typeof ERROR_CODES)[number];

const KNOWN: ReadonlySet<string> = new Set(ERROR_CODES);

export function isErrorCode(value: unknown): value is ErrorCodeV1 {
  return typeof value === "string" && KNOWN.has(value);
}
