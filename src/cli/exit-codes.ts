import type { ErrorCode } from "../core/errors.ts";

/** Exit codes of every command except `emit`, which speaks each agent's own exit-code contract. */
export const EXIT = {
  ok: 0,
  /** What the command checked or ran failed: a handler failed, validation found problems, a test failed. */
  failed: 1,
  /** The command line is wrong, or an input file is missing or unreadable. */
  usage: 2,
  /** Hookbox could not do its job: the sandbox would not start, the daemon is unreachable, the OS refused (permission denied, disk full). */
  internal: 3,
} as const;

/** What each exit code means, for the top-level help and the README (test/e2e/help.test.ts holds them equal). */
const MEANING: Readonly<Record<keyof typeof EXIT, string>> = {
  ok: "done: the command did what it was asked, and what it checked or ran passed",
  failed:
    "what it checked or ran failed: a handler failed or returned an invalid result, validation or type-checking found problems, a fixture failed",
  usage: "the command line is wrong, or an input file is missing or unreadable",
  internal:
    "Hookbox could not do its job: the daemon is unreachable, the OS refused (permission denied, disk full), the sandbox would not start, or a bug",
};

export function exitStatusHelp(): string {
  const rows = (Object.keys(EXIT) as (keyof typeof EXIT)[]).map((name) => `  ${EXIT[name]}  ${MEANING[name]}`);
  return `Exit status (every command but emit, which answers each agent in its own contract: hookbox emit --help):\n${rows.join("\n")}\n`;
}

export function exitCodeFor(code: ErrorCode): number {
  switch (code) {
    case "usage":
    case "file_unreadable":
      return EXIT.usage;
    case "internal":
    case "daemon_unavailable":
    case "permission_denied":
    case "os_error":
    case "sandbox_crashed":
    case "sandbox_closed":
      return EXIT.internal;
    default:
      return EXIT.failed;
  }
}
