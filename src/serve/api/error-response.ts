import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { HookboxError, type ErrorCode } from "../../core/errors.ts";
import type { ErrorCodeV1 } from "../../core/wire/error-codes.ts";

/** Compile-time: the wire's codes (ERROR_CODES, what clients switch on) are exactly the ErrorCode union, both ways. */
type Unlisted = Exclude<ErrorCode, ErrorCodeV1> | Exclude<ErrorCodeV1, ErrorCode>;
export const ERROR_CODES_COMPLETE: [Unlisted] extends [never] ? true : Unlisted = true;

/** Every error code's HTTP status, in one place. */
const STATUS: Partial<Record<ErrorCode, ContentfulStatusCode>> = {
  usage: 400,
  event_invalid: 400,
  config_invalid: 400,
  request_too_large: 413,
  unauthorized: 401,
  peer_refused: 403,
  capability_denied: 403,
  not_found: 404,
  conflict: 409,
  hook_set_mismatch: 409,
  sandbox_queue_full: 503,
  sandbox_closed: 503,
  daemon_unavailable: 503,
  audit_unavailable: 503,
};

export function statusOf(code: ErrorCode): ContentfulStatusCode {
  return STATUS[code] ?? 500;
}

/** The error body of every endpoint: `{ v, error: { code, message, details? } }`. */
export function errorResponse(c: Context, code: ErrorCode, message: string, details?: unknown): Response {
  return c.json({ v: 1, error: { code, message, ...(details !== undefined ? { details } : {}) } }, statusOf(code));
}

export function toErrorResponse(c: Context, error: unknown, onError?: (code: ErrorCode) => void): Response {
  const known = error instanceof HookboxError ? error : new HookboxError("internal", error instanceof Error ? error.message : String(error));
  onError?.(known.code);
  return errorResponse(c, known.code, known.message, known.details);
}
