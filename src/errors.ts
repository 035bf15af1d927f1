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
  | "conflict"
  | "capability_denied"
  | "daemon_unavailable"
  | "audit_unavailable"
  /** A daemon asked by `emit` resolves hook sets from other inputs (flags, operator file, build): emit evaluates itself. */
  | "hook_set_mismatch"
  /** A package's signature does not verify against a trusted key, or one is required and missing. */
  | "signature_invalid"
  /** A package asks for grants the user has not accepted (non-interactive: --yes without the matching --allow). */
  | "consent_required"
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
