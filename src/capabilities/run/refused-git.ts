/**
 * git is the tool hooks most need and the one most often turned into a shell: configuration
 * runs programs (core.pager, core.fsmonitor, core.sshCommand, alias.x = "!sh", diff drivers),
 * and several options name a program outright (windmill GHSA-gj6h-vw66-mr8f escaped through
 * `git -c core.fsmonitor=…`). Refused: every way to set configuration (-c, --config-env,
 * `git config` other than reading, clone -c/--config), options naming a program or a transport
 * (--upload-pack, --receive-pack, --exec, -x, --extcmd, -O, ext::/fd:: URLs), options leaving
 * the workspace or reading outside the repository (-C, --git-dir, --work-tree, --no-index,
 * --contents), options writing files (--output, -o, --template), options asking for the
 * programs configuration names (--textconv, --ext-diff), and subcommands that exist to run
 * programs. Long options are matched abbreviated too (git takes any unique prefix). What
 * configuration the repository itself holds is git-hardening.ts's concern.
 */

const CONFIG = "it sets git configuration, and configuration runs programs (core.pager, core.fsmonitor, core.sshCommand, alias.* …)";
const PROGRAM = "it names a program for git to run";
const ELSEWHERE = "it points git outside the workspace the command is confined to";
const WRITES = "it makes git write files (hooks have no write permission)";

/** Global options that take their value as the next argument. */
const GLOBAL_WITH_VALUE = new Set(["--namespace", "--super-prefix", "--list-cmds"]);

const REFUSED_SUBCOMMANDS: Readonly<Record<string, string>> = {
  "filter-branch": "it runs shell snippets",
  bisect: "`git bisect run` runs a program",
  submodule: "`git submodule foreach` runs shell commands and update runs clone with repository-chosen settings",
  difftool: "it runs a diff program",
  mergetool: "it runs a merge program",
  instaweb: "it starts a web server",
  daemon: "it starts a server",
  "web--browse": "it starts a browser",
  help: "it may start a browser, man or info",
  "send-email": "it runs a mail program",
  credential: "it reads stored credentials",
  "credential-store": "it reads stored credentials",
  "credential-cache": "it reads stored credentials",
  shell: "it is a restricted shell",
  hook: "it runs repository hooks",
  "remote-ext": "it runs a program as a transport",
  "remote-fd": "it uses inherited descriptors as a transport",
  "fsmonitor--daemon": "it starts a daemon",
  archimport: "it runs foreign tools",
  cvsimport: "it runs foreign tools",
  cvsserver: "it is a server",
  svn: "it runs foreign tools",
  p4: "it runs foreign tools",
  quiltimport: "it applies patches (writes files)",
};

/** Options refused after any subcommand (alone, or as --name=value). */
const REFUSED_ANYWHERE: readonly (readonly [string, string])[] = [
  ["--upload-pack", PROGRAM],
  ["--receive-pack", PROGRAM],
  ["--exec", PROGRAM],
  ["--extcmd", PROGRAM],
  ["--open-files-in-pager", PROGRAM],
  ["--textconv", "it runs the textconv program a diff driver names"],
  ["--ext-diff", "it runs the external diff program the configuration names"],
  ["--sendmail-cmd", PROGRAM],
  ["--config", CONFIG],
  ["--config-env", CONFIG],
  ["--output", WRITES],
  ["--output-directory", WRITES],
  ["--template", "it copies hook scripts into a repository"],
  ["--no-index", "it diffs files outside the repository"],
  ["--contents", "it reads a file outside the repository"],
  ["--git-dir", ELSEWHERE],
  ["--work-tree", ELSEWHERE],
];

/** Short options refused after these subcommands (alone, with a value attached, or in a cluster). */
const REFUSED_SHORT: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  clone: [
    ["-c", CONFIG],
    ["-u", PROGRAM],
  ],
  "ls-remote": [["-u", PROGRAM]],
  archive: [["-o", WRITES]],
  "format-patch": [["-o", WRITES]],
  grep: [["-O", PROGRAM]],
  rebase: [["-x", PROGRAM]],
};

const CONFIG_READS = new Set(["--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "get", "list"]);
const CONFIG_WRITES_OR_FILES =
  /^(--file|-f|--blob|--edit|-e|--add|--replace-all|--unset|--unset-all|--rename-section|--remove-section|set|unset|edit|rename-section|remove-section)(=|$)/;
const CONFIG_WRITES_OR_FILES_LONG = [
  "--file",
  "--blob",
  "--edit",
  "--add",
  "--replace-all",
  "--unset",
  "--unset-all",
  "--rename-section",
  "--remove-section",
];

/**
 * Whether `arg` is the long option `name`: alone, with `=value`, or abbreviated — git's
 * parse-options takes any unambiguous prefix (`git ls-remote --upload-pa=…` is --upload-pack),
 * so any prefix of a refused name of three characters or more ("--u") counts.
 */
export function isLongOption(arg: string, name: string): boolean {
  const written = arg.includes("=") ? arg.slice(0, arg.indexOf("=")) : arg;
  if (written === name) return true;
  return name.startsWith("--") && written.startsWith("--") && written.length >= 3 && name.startsWith(written);
}

/** Where the subcommand is in a git argv that passed gitRefusal (after global options); argv.length when there is none. */
export function gitSubcommandIndex(argv: readonly string[]): number {
  let index = 0;
  for (; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (!arg.startsWith("-")) break;
    if (GLOBAL_WITH_VALUE.has(arg)) index++;
  }
  return Math.min(index, argv.length);
}

export function gitRefusal(argv: readonly string[]): string | undefined {
  let index = 0;
  for (; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (!arg.startsWith("-")) break;
    if (arg.startsWith("-c") || arg === "--config-env" || arg.startsWith("--config-env=")) return `${JSON.stringify(arg)}: ${CONFIG}`;
    if (arg.startsWith("--exec-path=")) return `${JSON.stringify(arg)}: it makes git run its helper programs from another directory`;
    if (arg === "-C" || /^--(git-dir|work-tree)(=|$)/.test(arg)) return `${JSON.stringify(arg)}: ${ELSEWHERE}`;
    if (GLOBAL_WITH_VALUE.has(arg)) index++;
  }
  const subcommand = argv[index];
  if (subcommand === undefined) return undefined;
  const rest = argv.slice(index + 1);
  const refusedSubcommand = REFUSED_SUBCOMMANDS[subcommand];
  if (Object.hasOwn(REFUSED_SUBCOMMANDS, subcommand) && refusedSubcommand) return `git ${subcommand}: ${refusedSubcommand}`;
  if (
    subcommand === "config" &&
    (!rest.some((arg) => CONFIG_READS.has(arg)) ||
      rest.some((arg) => CONFIG_WRITES_OR_FILES.test(arg) || CONFIG_WRITES_OR_FILES_LONG.some((name) => isLongOption(arg, name))))
  ) {
    return `git config other than reading (--get, --list): ${CONFIG}`;
  }
  for (const arg of rest) {
    if (/(^|=)(ext|fd)::/.test(arg)) return `${JSON.stringify(arg)}: the ext:: and fd:: transports run programs`;
    const hit = REFUSED_ANYWHERE.find(([name]) => isLongOption(arg, name));
    if (hit) return `${JSON.stringify(arg)}: ${hit[1]}`;
    // git bundles short options (-nO…): a refused letter anywhere in a cluster counts.
    const short = (Object.hasOwn(REFUSED_SHORT, subcommand) ? REFUSED_SHORT[subcommand] : undefined)?.find(
      ([flag]) => !arg.startsWith("--") && new RegExp(`^-[A-Za-z0-9]*${flag.slice(1)}`).test(arg),
    );
    if (short) return `${JSON.stringify(arg)} (git ${subcommand}): ${short[1]}`;
  }
  return undefined;
}
