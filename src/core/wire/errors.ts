import type { ErrorBodyV1 } from "./error-body.ts";
import { isErrorCode } from "./error-codes.ts";

export { ERROR_CODES, isErrorCode } from "./error-codes.ts";
export type { ErrorBodyV1 };

/**
 * The `error` of an ErrorBodyV1, or undefined when `value` is not one (a body from something that
 * is not a Hookbox daemon, or a code this build does not know). Lean, for `emit` and the client:
 * the same rules as errorBodySchema (test/server/wire.test.ts holds them to it).
 */
export function errorOfBody(value: unknown): ErrorBodyV1["error"] | undefined {
  if (value === null || typeof value !== "object" || (value as { v?: unknown }).v !== 1) return undefined;
  const error = (value as { error?: unknown }).error;
  if (error === null || typeof error !== "object") return undefined;
  const { code, message, details } = error as { code?: unknown; message?: unknown; details?: unknown };
  if (!isErrorCode(code) || typeof message !== "string") return undefined;
  return { code, message, ...(details !== undefined ? { details } : {}) };
}
