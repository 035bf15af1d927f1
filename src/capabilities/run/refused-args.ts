import { gitRefusal } from "./refused-git.ts";
import { awkRefusal, sedRefusal } from "./refused-scripts.ts";

/**
 * Argument classes that turn a harmless tool into a shell (or a way around the other grants).
 * They are refused for every hook, whatever its grant says: no grant can lift them. This is a
 * list of known classes, not a proof — the grant's argv pattern stays the primary control.
 * docs/permissions.md lists them; each refusal says why.
 */
type Rule = (argv: readonly string[]) => string | undefined;

/** Options refused when an argument equals one of them, or starts with `<option>=`. */
function options(names: readonly string[], why: string): Rule {
  return (argv) => {
    const hit = argv.find((arg) => names.some((name) => arg === name || arg.startsWith(`${name}=`)));
    return hit === undefined ? undefined : `${JSON.stringify(hit)}: ${why}`;
  };
}

/** Short options refused alone or inside a cluster (`-avze ssh` holds -e). */
function shortFlags(letters: string, why: string): Rule {
  const cluster = new RegExp(`^-[A-Za-z0-9]*[${letters}]`);
  return (argv) => {
    const hit = argv.find((arg) => !arg.startsWith("--") && cluster.test(arg));
    return hit === undefined ? undefined : `${JSON.stringify(hit)}: ${why}`;
  };
}

function all(...rules: Rule[]): Rule {
  return (argv) => {
    for (const rule of rules) {
      const reason = rule(argv);
      if (reason !== undefined) return reason;
    }
    return undefined;
  };
}

const RUNS_A_PROGRAM = "it makes the tool run another program";
const WRITES_FILES = "it makes the tool write files (hooks have no write permission)";

const TOOLS: readonly { readonly names: RegExp; readonly rule: Rule }[] = [
  { names: /^git$/, rule: gitRefusal },
  {
    names: /^(find|gfind|bfs)$/,
    rule: all(
      options(["-exec", "-execdir", "-ok", "-okdir"], RUNS_A_PROGRAM),
      options(["-delete", "-fprint", "-fprint0", "-fprintf", "-fls"], WRITES_FILES),
    ),
  },
  {
    names: /^(tar|gtar|bsdtar)$/,
    rule: all(
      options(
        ["--to-command", "--checkpoint-action", "--use-compress-program", "--rsh-command", "--rmt-command", "--info-script", "--new-volume-script"],
        RUNS_A_PROGRAM,
      ),
      shortFlags("IF", RUNS_A_PROGRAM),
      (argv) => (argv[0] !== undefined && /^[A-Za-z]*[IF][A-Za-z]*$/.test(argv[0]) ? `${JSON.stringify(argv[0])}: ${RUNS_A_PROGRAM}` : undefined),
    ),
  },
  { names: /^rsync$/, rule: all(options(["--rsh", "--rsync-path", "--remote-option"], RUNS_A_PROGRAM), shortFlags("eM", RUNS_A_PROGRAM)) },
  {
    names: /^(ssh|slogin|scp|sftp)$/,
    rule: all(shortFlags("oFSD", "it sets options that run local programs (ProxyCommand, LocalCommand) or picks the program to run"), (argv) => {
      const hit = argv.find((arg) => /(ProxyCommand|LocalCommand|KnownHostsCommand|PermitLocalCommand)/i.test(arg));
      return hit === undefined ? undefined : `${JSON.stringify(hit)}: ${RUNS_A_PROGRAM}`;
    }),
  },
  { names: /^(sed|gsed)$/, rule: sedRefusal },
  { names: /^(g|m|n|busybox-)?awk$/, rule: awkRefusal },
  {
    names: /^zip$/,
    rule: all(options(["--unzip-command"], RUNS_A_PROGRAM), (argv) =>
      argv.some((arg) => arg.startsWith("-TT")) ? `"-TT": ${RUNS_A_PROGRAM}` : undefined,
    ),
  },
  { names: /^(pytest|py\.test)$/, rule: all(options(["--pdbcls"], "it imports a module of the caller's choosing"), pytestPlugins) },
];

/** pytest -p NAME imports a module of the caller's choosing; -p no:NAME only disables one. */
function pytestPlugins(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const at = arg.startsWith("--") ? -1 : arg.indexOf("p");
    if (!arg.startsWith("-") || at < 0 || !/^-[A-Za-z]*$/.test(arg.slice(0, at))) continue;
    const value = arg.length > at + 1 ? arg.slice(at + 1) : (argv[++i] ?? "");
    if (!value.startsWith("no:")) return `${JSON.stringify(arg)}: it loads a plug-in module of the caller's choosing (only -p no:NAME is allowed)`;
  }
  return undefined;
}

/**
 * /proc holds every process's environment (the daemon's secrets too); /dev and /sys are devices.
 * This is the textual first pass, before the grants are looked at; the check that holds is on
 * the resolved paths, once the working directory is known (special-paths.ts, from the Runner):
 * `//proc`, `../../proc` and a symlink to /proc all pass this one.
 */
function specialPathArgument(argv: readonly string[]): string | undefined {
  const hit = argv.find((arg) => /(^|[=:,@])\/(proc|sys)(\/|$)/.test(arg) || /(^|[=:,@])\/dev\/(?!null$)/.test(arg));
  return hit === undefined
    ? undefined
    : `${JSON.stringify(hit)}: arguments naming /proc, /sys or /dev paths are refused (they reach other processes' environments, descriptors and devices)`;
}

/** Why this argv is refused for a command known by `names`, or undefined. */
export function refusedArguments(names: readonly string[], argv: readonly string[]): string | undefined {
  const special = specialPathArgument(argv);
  if (special !== undefined) return special;
  for (const tool of TOOLS) {
    if (names.some((name) => tool.names.test(name))) {
      const reason = tool.rule(argv);
      if (reason !== undefined) return reason;
    }
  }
  return undefined;
}
