import type { ErrorCode } from "../errors.ts";

/** Exit codes of every command except `emit`, which speaks each agent's own exit-code contract. */
export const EXIT = {
  ok: 0,
  /** What the command checked or ran failed: a handler failed, validation found problems, a test failed. */
  failed: 1,
  /** The command line is wrong, or an input file is missing or unreadable. */
  usage: 2,
  /** Hookbox could not do its job: the sandbox would not start, the daemon is unreachable. */
  internal: 3,
} as const;

export function exitCodeFor(code: ErrorCode): number {
  switch (code) {
    case "usage":
    case "file_unreadable":
      return EXIT.usage;
    case "internal":
    case "daemon_unavailable":
    case "sandbox_crashed":
    case "sandbox_closed":
      return EXIT.internal;
    default:
      return EXIT.failed;
  }
}
