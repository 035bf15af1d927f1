/**
 * argv patterns of run grants: literal words, `*` = exactly one argument, `**` = all remaining
 * arguments (last only). A wildcard never matches an argument holding shell syntax: no shell
 * ever runs, but a tool may hand an argument to one (an alias, a pager, ssh's remote command);
 * a grant that needs such an argument names it literally.
 */

export const ANY_ONE = "*";
export const ANY_REST = "**";

const SHELL_SYNTAX = /[;&|`<>\r\n]|\$[({]/;

/** The first shell-syntax character sequence in `arg`, or undefined. */
export function shellSyntax(arg: string): string | undefined {
  const found = SHELL_SYNTAX.exec(arg)?.[0];
  if (found === "\n") return "a newline";
  if (found === "\r") return "a carriage return";
  return found;
}

export function checkArgsPattern(pattern: readonly string[]): string | undefined {
  const rest = pattern.indexOf(ANY_REST);
  if (rest >= 0 && rest !== pattern.length - 1) return `"**" may only be the last argument pattern (it matches all remaining arguments)`;
  return undefined;
}

export function argsMatch(pattern: readonly string[], argv: readonly string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const word = pattern[i];
    if (word === ANY_REST) return argv.slice(i).every((arg) => shellSyntax(arg) === undefined);
    const arg = argv[i];
    if (arg === undefined) return false;
    if (word === ANY_ONE) {
      if (shellSyntax(arg) !== undefined) return false;
    } else if (word !== arg) return false;
  }
  return argv.length === pattern.length;
}

/** `git diff --stat` as a readable command line: arguments with spaces or quotes are JSON-quoted. */
export function renderCommandLine(cmd: string, argv: readonly string[]): string {
  return [cmd, ...argv].map((word) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word))).join(" ");
}
