import type { SandboxFailureCode } from "../sandbox/index.ts";

/**
 * Stable error codes. They are part of every wire format (HTTP bodies, audit records, CLI
 * --json output) and are mapped to HTTP statuses in src/server/error-response.ts and to exit
 * codes in src/cli/exit-codes.ts — nowhere else.
 */
export type ErrorCode =
  | SandboxFailureCode
  | "usage"
  | "file_unreadable"
  | "config_invalid"
  | "event_invalid"
  | "request_too_large"
  | "not_found"
  | "unauthorized"
  /** A process of another user connected to a daemon's unix socket: each user's daemon serves its owner only. */
  | "peer_refused"
  | "conflict"
  | "capability_denied"
  | "daemon_unavailable"
  | "audit_unavailable"
  /** A daemon asked by `emit` resolves hook sets from other inputs (flags, operator file, build): emit evaluates itself. */
  | "hook_set_mismatch"
  | "internal";

/** The one exception type of Hookbox: a code, a message that says what, where and how to fix. */
export class HookboxError extends Error {
  override readonly name = "HookboxError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Structured detail for --json output and HTTP bodies (e.g. the list of config problems). */
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
