import { HookboxError, errorMessage, fromOsError } from "../errors.ts";
import { EXIT, exitCodeFor } from "./exit-codes.ts";

/** What a shell reports for a process killed by SIGPIPE (128 + 13). */
const EXIT_BROKEN_PIPE = 141;

/**
 * Every error a command did not handle, as one line: `error[code]: what, where, how to fix`.
 * An OS error names its path, cause and fix (errors.ts maps errno codes); a stack is printed
 * only with --debug, for an error that is a bug in Hookbox. Shared by the commander commands
 * and `serve`'s lean path.
 */
export function reportError(err: (text: string) => void, error: unknown, debug: boolean): number {
  // The reader went away (`hookbox … | head`): nobody is left to tell, as with SIGPIPE.
  if ((error as NodeJS.ErrnoException | undefined)?.code === "EPIPE") return EXIT_BROKEN_PIPE;
  const known = error instanceof HookboxError ? error : fromOsError(error);
  const stack = debug && error instanceof Error && error.stack ? `${error.stack}\n` : "";
  if (known) {
    err(`error[${known.code}]: ${known.message}\n${stack}`);
    return exitCodeFor(known.code);
  }
  err(`error[internal]: ${errorMessage(error).split("\n")[0]} (a bug in Hookbox: run again with --debug for where it happened, and report it)\n${stack}`);
  return EXIT.internal;
}
