/**
 * The commands a replay runs for real: ones that only read, the kind a guard asks to decide
 * (`git diff`, `git status`, `git clean --dry-run`, `cat`, `grep` …). Every other command a hook
 * runs is answered without running (src/decide/replay/effects.ts) and counted. A command is
 * judged by its program's name and its arguments, after the hook's own run grants allowed it.
 */

/** git subcommands that only read the repository (with the options below refused). */
const GIT_READS = new Set([
  "diff",
  "diff-files",
  "diff-index",
  "diff-tree",
  "status",
  "log",
  "show",
  "rev-parse",
  "rev-list",
  "ls-files",
  "ls-tree",
  "cat-file",
  "blame",
  "describe",
  "merge-base",
  "name-rev",
  "shortlog",
  "grep",
  "for-each-ref",
  "show-ref",
  "check-ignore",
  "check-attr",
  "var",
  "version",
]);

/** Options that make a reading git command write a file or run a program. */
const GIT_WRITING_OPTION = /^(--output(=|$)|-O|--open-files-in-pager|--ext-diff$|--textconv$)/;

/** Programs that only read their inputs and print (with the options below refused). */
const READERS = new Set([
  "cat",
  "head",
  "tail",
  "wc",
  "ls",
  "stat",
  "file",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "jq",
  "diff",
  "cmp",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "pwd",
  "echo",
  "printf",
  "true",
  "false",
  "test",
  "which",
  "date",
  "uname",
  "whoami",
  "id",
  "du",
  "df",
  "tree",
]);

/** Options of those programs that write or run something: rg --pre runs a program, tail -f never ends. */
const READER_WRITING_OPTION = /^(--pre(=|$)|--pre-glob|-f$|--follow|-F$|--output(=|$)|-o$)/;

/** Whether replay may run this command for real: it only reads. `program` is the path or name that would run. */
export function isReadOnlyCommand(program: string, args: readonly string[]): boolean {
  const name = program.slice(program.lastIndexOf("/") + 1);
  if (name === "git") return isReadOnlyGit(args);
  if (!READERS.has(name)) return false;
  // tail -f never ends; grep -f and rg -f read patterns, harmless, but -o/--output of sort-like tools write.
  if (name === "grep" || name === "egrep" || name === "fgrep" || name === "rg") return !args.some((arg) => /^--pre(=|$)|^--pre-glob/.test(arg));
  return !args.some((arg) => READER_WRITING_OPTION.test(arg));
}

/** Global options taking a value as the next argument: the host's hardening puts `-c key=value` pairs first. */
const GIT_GLOBAL_WITH_VALUE = new Set(["-c", "-C", "--namespace", "--super-prefix", "--git-dir", "--work-tree", "--exec-path", "--config-env"]);

function isReadOnlyGit(args: readonly string[]): boolean {
  let at = 0;
  while (at < args.length && (args[at] as string).startsWith("-")) at += GIT_GLOBAL_WITH_VALUE.has(args[at] as string) ? 2 : 1;
  const subcommand = args[at];
  const rest = args.slice(at + 1);
  if (subcommand === undefined) return false;
  if (rest.some((arg) => GIT_WRITING_OPTION.test(arg))) return false;
  if (GIT_READS.has(subcommand)) return true;
  // What self-protect asks: which files a clean would remove, without removing them.
  if (subcommand === "clean") return rest.some((arg) => arg === "--dry-run" || arg === "-n" || /^-[a-zA-Z]*n[a-zA-Z]*$/.test(arg));
  // The host's own look at a repository's configuration before it runs git there.
  if (subcommand === "config") return rest.some((arg) => arg === "--list" || arg === "-l" || arg.startsWith("--get"));
  if (subcommand === "branch" || subcommand === "tag")
    return (
      rest.length === 0 ||
      rest.every((arg) => arg === "--list" || arg === "-l" || arg === "--show-current" || arg === "-a" || arg === "-r" || arg === "-v")
    );
  return false;
}
