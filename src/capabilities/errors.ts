import type { HostCallError } from "../../sandbox/index.ts";

/**
 * Codes a handler sees on a failed `hook.*` call (`error.code`). Only name, message and code
 * cross into the guest: never a host stack, never a host object.
 */
export type GuestErrorCode =
  | "capability_denied"
  | "invalid_argument"
  | "not_found"
  | "too_large"
  | "timeout"
  | "command_failed"
  | "io_failed"
  | "http_failed"
  | "not_configured"
  | "budget_exceeded"
  | "llm_failed"
  | "invalid_answer";

type GuestErrorName = "PermissionDenied" | "TypeError" | "HookboxError";

export class CapabilityError extends Error {
  constructor(
    readonly guestName: GuestErrorName,
    readonly code: GuestErrorCode,
    message: string,
  ) {
    super(message);
  }

  toHostCallError(): HostCallError {
    return { name: this.guestName, message: this.message, code: this.code };
  }
}

/** Throws PermissionDenied in the guest (catchable); recorded as `denied`. */
export function denied(message: string): CapabilityError {
  return new CapabilityError("PermissionDenied", "capability_denied", message);
}

/** The guest passed something of the wrong shape: a TypeError-like rejection, never a host crash. */
export function invalidArgument(message: string): CapabilityError {
  return new CapabilityError("TypeError", "invalid_argument", message);
}

export function failed(code: Exclude<GuestErrorCode, "capability_denied" | "invalid_argument">, message: string): CapabilityError {
  return new CapabilityError("HookboxError", code, message);
}

const ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  ENOTDIR: "a path component is not a directory",
  EISDIR: "is a directory",
  EACCES: "permission denied by the operating system",
  EPERM: "operation not permitted by the operating system",
  ELOOP: "is a symbolic link (never followed)",
  ENAMETOOLONG: "path too long",
  EMFILE: "too many open files",
  ENOTSUP: "not supported on this platform",
  ETIMEDOUT: "timed out",
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
};

/**
 * Whatever a capability threw, as the guest may see it. Runtime errors carry host details
 * (paths, stacks): only their errno code and a fixed text cross, prefixed by the call.
 */
export function toGuestError(error: unknown, call: string): HostCallError {
  if (error instanceof CapabilityError) return error.toHostCallError();
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && /^E[A-Z0-9_]+$/.test(code)) {
    const text = ERRNO_TEXT[code] ?? code;
    return { name: "HookboxError", message: `${call} failed: ${text} (${code})`, code: code === "ENOENT" ? "not_found" : "io_failed" };
  }
  return { name: "HookboxError", message: `${call} failed`, code: "io_failed" };
}
