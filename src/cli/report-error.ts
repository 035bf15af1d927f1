import { HookboxError, errorMessage, fromOsError } from "../core/errors.ts";
import { EXIT, exitCodeFor } from "./exit-codes.ts";

/** What a shell reports for a process killed by SIGPIPE (128 + 13). */
const EXIT_BROKEN_PIPE = 141;

/** How a failed command reports: text for a person, or (with --json) one JSON object a program can read. */
export type ErrorFormat = "text" | "json";

/**
 * Did the command line ask for JSON? `--json` before a `--` (after it, it is an argument). The
 * errors of every command that takes --json then come out as JSON too (jsonError).
 */
export function errorFormatOf(args: readonly string[]): ErrorFormat {
  const end = args.indexOf("--");
  return (end < 0 ? args : args.slice(0, end)).includes("--json") ? "json" : "text";
}

/**
 * An error as printed with --json: one line, on stderr like every error (stdout stays the data's,
 * empty on an error): `{"v":1,"error":{"code":"not_found","message":"…","exit_code":1}}`.
 */
export function jsonError(code: string, message: string, exitCode: number): string {
  return `${JSON.stringify({ v: 1, error: { code, message, exit_code: exitCode } })}\n`;
}

/**
 * Every error a command did not handle, as one line: `error[code]: what, where, how to fix`.
 * An OS error names its path, cause and fix (errors.ts maps errno codes); a stack is printed
 * only with --debug, for an error that is a bug in Hookbox. Shared by the commander commands
 * and `serve`'s lean path.
 */
export function reportError(err: (text: string) => void, error: unknown, debug: boolean, format: ErrorFormat = "text"): number {
  // The reader went away (`hookbox … | head`): nobody is left to tell, as with SIGPIPE.
  if ((error as NodeJS.ErrnoException | undefined)?.code === "EPIPE") return EXIT_BROKEN_PIPE;
  const known = error instanceof HookboxError ? error : fromOsError(error);
  const stack = debug && error instanceof Error && error.stack ? `${error.stack}\n` : "";
  if (known) {
    const exit = exitCodeFor(known.code);
    err(format === "json" ? jsonError(known.code, known.message, exit) : `error[${known.code}]: ${known.message}\n`);
    err(stack);
    return exit;
  }
  const message = `${errorMessage(error).split("\n")[0]} (a bug in Hookbox: run again with --debug for where it happened, and report it)`;
  err(format === "json" ? jsonError("internal", message, EXIT.internal) : `error[internal]: ${message}\n`);
  err(stack);
  return EXIT.internal;
}
