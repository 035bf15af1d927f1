import type { ErrorCodeV1 } from "../core/wire/error-codes.ts";

/**
 * Why a call failed, as a stable code: the daemon's own (an ErrorBodyV1's `error.code`, with its
 * HTTP status), or the client's — `daemon_unavailable` (nothing answers, even after the retry),
 * `timeout` (no whole answer within timeoutMs), `protocol` (an answer that is not the API's).
 */
export type ClientErrorCode = ErrorCodeV1 | "timeout" | "protocol";

export class HookboxClientError extends Error {
  override readonly name = "HookboxClientError";
  constructor(
    readonly code: ClientErrorCode,
    message: string,
    /** The HTTP status of the daemon's answer; absent when there was none. */
    readonly status?: number,
    /** The error body's details (the field at fault …). */
    readonly details?: unknown,
  ) {
    super(message);
  }
}
