import type { SandboxFailureCode } from "../../sandbox/index.ts";

/**
 * Stable error codes. They are part of every wire format (HTTP bodies, audit records, CLI
 * --json output) and are mapped to HTTP statuses in src/serve/api/error-response.ts and to exit
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
  /** A prompt hook's model gave no usable answer: no endpoint, an error, a timeout, a budget, or twice an answer that did not fit. */
  | "llm_failed"
  | "daemon_unavailable"
  | "audit_unavailable"
  /** The operating system refused: a path that is not yours (EACCES, EPERM), a read-only file system. */
  | "permission_denied"
  /** Any other operating-system error (no space left, too many open files, a path too long …). */
  | "os_error"
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

/** An error the operating system raised (Node, Bun and Deno put its errno name in `code`). */
export interface OsError {
  readonly code: string;
  readonly path?: string;
  readonly syscall?: string;
}

export function osErrorOf(error: unknown): OsError | undefined {
  const e = error as Partial<OsError> | null;
  return typeof e === "object" && e !== null && typeof e.code === "string" && /^E[A-Z0-9]+$/.test(e.code) ? (e as OsError) : undefined;
}

/** Every errno Hookbox explains, in one place: what it means and what to do. */
const ERRNO: Readonly<Record<string, { readonly code: ErrorCode; readonly cause: string; readonly fix: (path: string) => string }>> = {
  EACCES: {
    code: "permission_denied",
    cause: "permission denied",
    fix: (p) => `check who owns ${p} and a directory above it, and their modes (ls -ld ${p}), or use a path of your own`,
  },
  EPERM: {
    code: "permission_denied",
    cause: "operation not permitted",
    fix: (p) => `${p} belongs to another user (ls -ld ${p}): use a path of your own`,
  },
  EROFS: { code: "permission_denied", cause: "read-only file system", fix: () => "use a path on a writable file system" },
  ENOENT: { code: "os_error", cause: "no such file or directory", fix: (p) => `check the path (and that the directories above ${p} exist)` },
  ENOTDIR: { code: "os_error", cause: "a part of the path is not a directory", fix: () => "check the path" },
  EISDIR: { code: "os_error", cause: "is a directory", fix: () => "give a file's path" },
  ELOOP: { code: "os_error", cause: "too many levels of symbolic links", fix: (p) => `look for a symbolic link loop in ${p}` },
  ENAMETOOLONG: {
    code: "os_error",
    cause: "name too long",
    fix: () => "use a shorter path (a unix socket's path is limited to about 100 bytes: try --socket or HOOKBOX_SOCKET with one under /tmp)",
  },
  ENOSPC: { code: "os_error", cause: "no space left on the device", fix: () => "free some space" },
  EDQUOT: { code: "os_error", cause: "disk quota exceeded", fix: () => "free some space" },
  EMFILE: { code: "os_error", cause: "too many open files", fix: () => "raise the limit (ulimit -n)" },
  ENFILE: { code: "os_error", cause: "too many open files in the system", fix: () => "close some programs or raise the system's limit" },
  EADDRINUSE: { code: "os_error", cause: "address already in use", fix: () => "stop what listens there, or choose another address" },
  ECONNREFUSED: { code: "os_error", cause: "connection refused", fix: () => "check that the server runs" },
  EEXIST: { code: "os_error", cause: "already exists", fix: (p) => `remove ${p} or choose another path` },
};

/**
 * An OS error as a HookboxError whose message is one line: the path, the cause and the fix
 * (`/run/x: permission denied (EACCES, mkdir); check who owns …`). `path` is used when the error
 * names none. Undefined when `error` is not an OS error.
 */
export function fromOsError(error: unknown, path?: string): HookboxError | undefined {
  const os = osErrorOf(error);
  if (!os) return undefined;
  const where = os.path ?? path;
  const known = ERRNO[os.code];
  const detail = `${os.code}${os.syscall ? `, ${os.syscall}` : ""}`;
  if (!known) return new HookboxError("os_error", `${where ? `${where}: ` : ""}${firstLine(errorMessage(error))} (${detail})`);
  return new HookboxError(known.code, `${where ? `${where}: ` : ""}${known.cause} (${detail}); ${known.fix(where ?? "the path")}`);
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? "";
}
