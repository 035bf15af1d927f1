import { SH_MAX_COMMANDS, type ShCommand, shAnalyze, shCommandText, shInlineScript } from "../../../handlers/lib/shell/index.ts";
import { SH_MAX_DEPTH } from "../../../handlers/lib/shell/lex.ts";

/**
 * `Bash(specifier)` of a permission rule, as a hook selector. The specifier is Claude Code's:
 * `npm run build` is that command exactly; `git commit:*` and `git commit *` are the command and
 * anything after a space (a word boundary: not `git commit-tree`), the trailing part optional;
 * any other `*` is any text, spaces included (code.claude.com/docs/en/permissions, "Wildcard
 * patterns"; the hooks `if` field since 2.1.85, matched per subcommand since 2.1.89).
 *
 * A selector decides which events a guard sees, so every doubt is resolved toward "the hook
 * runs" (docs/matching.md, "Permission rules"): the line is read as bash splits it
 * (hookbox:shell), and it is selected when ANY simple command in it matches — after `&&`, `;`, a
 * pipe, inside $(…), `sh -c '…'` or `eval`, behind wrappers (`command`, `env`, `sudo`, `timeout`,
 * `xargs` …) and assignments, with the program named by a path (`/usr/bin/git`) or quoted
 * (`"git"`). A command Hookbox cannot read — its program or an argument known only when the
 * shell runs it (`$X commit`, `git $SUB`), a script nested deeper than it reads, a line past its
 * bounds — is selected too.
 */

/** Lines longer than this are not read: selected (the reading is bounded, the selector must not be). */
const MAX_COMMAND_CHARS = 100_000;

/** Global options that take a value, per program, skipped before its subcommand (`git -C dir commit`). */
const GLOBAL_OPTIONS: Readonly<Record<string, { readonly valued: readonly string[] }>> = {
  git: { valued: ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--exec-path"] },
};

/** Programs that run a command made of their own arguments (`find . -exec git commit \;`, `watch make`, `strace git push`). */
const RUNS_ITS_ARGUMENTS: ReadonlySet<string> = new Set([
  "find",
  "watch",
  "strace",
  "ltrace",
  "chroot",
  "unshare",
  "nsenter",
  "firejail",
  "bwrap",
  "proot",
  "valgrind",
  "entr",
  "systemd-run",
  "run-one",
]);
/** How far into such a command its arguments are tried as the start of a command. */
const MAX_INNER_STARTS = 256;

export interface CommandRule {
  /** The specifier as written, for messages. */
  readonly source: string;
  test(command: unknown, cwd: string | undefined): boolean;
}

export function compileCommandRule(specifier: string): CommandRule {
  const spaced = specifier.trim().replace(/\s+/g, " ");
  const text = spaced.endsWith(":*") ? `${spaced.slice(0, -2)} *` : spaced;
  const optionalTail = text.endsWith(" *") && text.indexOf("*") === text.length - 1;
  const body = optionalTail ? text.slice(0, -2) : text;
  const pattern = body
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  const regex = new RegExp(`^${pattern}${optionalTail ? "(?: .*)?" : ""}$`, "s");
  // The program the rule names, when it names one literally: an unreadable argument of that program selects.
  const program = /^[^\s*]+(?=\s|$)/.exec(body)?.[0];
  return {
    source: specifier,
    test: (command, cwd) => {
      if (body === "" && optionalTail) return true;
      const line = shCommandText(command);
      if (line.length > MAX_COMMAND_CHARS) return true;
      const pipelines = shAnalyze(line, cwd);
      let count = 0;
      for (const pipeline of pipelines)
        for (const cmd of pipeline.commands) {
          count++;
          if (commandMatches(cmd, regex, program)) return true;
          // Scripts nested deeper than the reader goes were not read.
          if (pipeline.nest >= SH_MAX_DEPTH && (shInlineScript(cmd) !== undefined || cmd.words.some((w) => w.subs.length > 0))) return true;
        }
      return count >= SH_MAX_COMMANDS;
    },
  };
}

function commandMatches(cmd: ShCommand, regex: RegExp, program: string | undefined): boolean {
  const [first, ...rest] = cmd.argv;
  if (first === undefined) return false;
  // The program itself is known only when the shell runs it ($CMD, a glob against the disk).
  if (first.dynamic || first.glob) return true;
  // A shell or eval whose script is known only when it runs.
  const inline = shInlineScript(cmd);
  if (inline !== undefined && cmd.argv.some((w) => w.text === inline && w.dynamic)) return true;
  if (cmd.name === "eval" && rest.some((w) => w.dynamic)) return true;
  // The program by its name as written, and by its base name lower-cased (/usr/bin/git, GIT on a case-insensitive disk).
  const names = [...new Set([first.text, cmd.name])];
  const args = rest.map((w) => w.text);
  if (testArgv(names, cmd.name, args, regex)) return true;
  if (RUNS_ITS_ARGUMENTS.has(cmd.name))
    for (let i = 0; i < Math.min(rest.length, MAX_INNER_STARTS); i++) {
      const inner = rest[i] as (typeof rest)[number];
      if (inner.text.startsWith("-")) continue;
      // find runs a command only after -exec, -execdir, -ok or -okdir (not its -name rm).
      if (cmd.name === "find" && !/^-(exec|execdir|ok|okdir)$/.test(rest[i - 1]?.text ?? "")) continue;
      const base = inner.text.slice(inner.text.lastIndexOf("/") + 1).toLowerCase();
      if (testArgv([...new Set([inner.text, base])], base, args.slice(i + 1), regex)) return true;
    }
  // An argument known only when the shell runs it may be what the rule names.
  if (program !== undefined && (program === cmd.name || program === first.text) && rest.some((w) => w.dynamic || w.glob)) return true;
  return false;
}

function testArgv(names: readonly string[], name: string, args: readonly string[], regex: RegExp): boolean {
  const skipped = skipGlobalOptions(name, args);
  for (const written of names) {
    if (regex.test([written, ...args].join(" "))) return true;
    if (skipped !== args && regex.test([written, ...skipped].join(" "))) return true;
  }
  return false;
}

function skipGlobalOptions(name: string, args: readonly string[]): readonly string[] {
  const options = GLOBAL_OPTIONS[name];
  if (!options) return args;
  let i = 0;
  while (i < args.length && (args[i] as string).startsWith("-")) i += options.valued.includes(args[i] as string) ? 2 : 1;
  return i === 0 ? args : args.slice(i);
}
