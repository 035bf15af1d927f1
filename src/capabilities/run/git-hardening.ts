import type { CapabilityIO } from "../../platform/capability-io.ts";
import { decodeUtf8 } from "../text.ts";
import { isAbsolute, join, normalize } from "../paths/posix.ts";
import { gitSubcommandIndex } from "./refused-git.ts";

/**
 * Every git a hook runs (hook.run("git", …), gitDiff, fileDiff) is hardened by the host; the
 * guest cannot remove any of it. A repository's configuration names programs that git runs as
 * children of the daemon: core.fsmonitor on every status or diff, diff drivers' textconv, filters'
 * clean/smudge/process, hooks, pagers, credential helpers, include.path pulling in more of it. The
 * workspace is not trusted, and neither is its .git. So:
 * - system and global configuration and attributes are not read (GIT_CONFIG_NOSYSTEM,
 *   GIT_CONFIG_GLOBAL=/dev/null, GIT_ATTR_NOSYSTEM);
 * - `-c` overrides before the guest's arguments turn off fsmonitor, hooks, the pager, the
 *   editor and credential helpers (command-line configuration wins over the repository's, and git passes it
 *   on to the git processes it starts itself, in submodules too);
 * - the diff commands get --no-textconv --no-ext-diff;
 * - and a repository whose own configuration (local, worktree, its submodules') sets any key that
 *   runs a program is refused outright, before git runs in it.
 */

export const GIT_HARDENING_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_ATTR_NOSYSTEM: "1",
};

export const GIT_HARDENING_ARGS: readonly string[] = [
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.pager=cat",
  "-c",
  "core.editor=false",
  "-c",
  "credential.helper=",
];

const DIFF_COMMANDS = new Set(["diff", "diff-files", "diff-index", "diff-tree", "log", "show", "whatchanged", "format-patch", "blame"]);

/** The argv git really gets: the host's overrides, then the guest's, with the diff flags after the subcommand. */
export function hardenedGitArgs(argv: readonly string[]): string[] {
  const at = gitSubcommandIndex(argv);
  const subcommand = argv[at];
  const extra =
    subcommand !== undefined && DIFF_COMMANDS.has(subcommand) ? ["--no-textconv", "--no-ext-diff"] : subcommand === "grep" ? ["--no-textconv"] : [];
  return [...GIT_HARDENING_ARGS, ...argv.slice(0, at + 1), ...extra, ...argv.slice(at + 1)];
}

const FALSE = /^(false|no|off|0)$/i;
const BOOLEAN = /^(true|false|yes|no|on|off|1|0|)$/i;

/** Keys (lower-cased, `section.subsection.key`) that make git run a program, with why; `value` decides for a few. */
const PROGRAM_KEYS: readonly { readonly key: RegExp; readonly runs?: (value: string) => boolean; readonly why: string }[] = [
  { key: /^filter\./, why: "a filter driver runs its clean/smudge/process program on files" },
  { key: /\.textconv$/, why: "a diff driver's textconv runs a program on files" },
  { key: /^diff\.external$/, why: "it names an external diff program" },
  { key: /\.(command|cmd|driver|program|helper|vcs|uploadpack|receivepack|packobjectshook)$/, why: "it names a program for git to run" },
  { key: /^core\.fsmonitor$/, runs: (value) => !FALSE.test(value), why: "core.fsmonitor runs a program on every status and diff" },
  { key: /^core\.(pager|editor|sshcommand|askpass|gitproxy|alternaterefscommand)$/, why: "it names a program for git to run" },
  { key: /^(sequence\.editor|web\.browser|credential\.helper)$/, why: "it names a program for git to run" },
  { key: /^pager\./, runs: (value) => !BOOLEAN.test(value), why: "a pager.<command> value other than true/false is a program" },
  { key: /^alias\./, runs: (value) => value.trimStart().startsWith("!"), why: "an alias starting with ! runs a shell command" },
  {
    key: /^submodule\..*\.update$/,
    runs: (value) => value.trimStart().startsWith("!"),
    why: "a submodule update starting with ! runs a shell command",
  },
  { key: /^(include|includeif)\./, why: "it includes another configuration file, which could name programs" },
];

/** Why a configuration entry makes git run a program, or undefined. */
export function programKey(key: string, value: string): string | undefined {
  const lower = key.toLowerCase();
  const hit = PROGRAM_KEYS.find((entry) => entry.key.test(lower) && (entry.runs === undefined || entry.runs(value)));
  return hit?.why;
}

/** `git config --list --null` output → [key, value] pairs (a key alone is a boolean true). */
export function parseConfigList(text: string): [string, string][] {
  return text
    .split("\0")
    .filter((entry) => entry !== "")
    .map((entry) => {
      const newline = entry.indexOf("\n");
      return newline < 0 ? [entry, "true"] : [entry.slice(0, newline), entry.slice(newline + 1)];
    });
}

/** Submodule configurations checked at most; a repository with more is refused (fail closed). */
const MAX_NESTED_CONFIGS = 64;
const CHECK_TIMEOUT_MS = 10_000;

export interface GitCheckContext {
  readonly io: CapabilityIO;
  /** Absolute path of git, as the grant resolved it. */
  readonly program: string;
  readonly cwd: string;
  /** The hardened environment the command itself will get. */
  readonly env: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
}

/**
 * Why git must not run in the repository `cwd` belongs to, or undefined. Asks git itself (the
 * parser that matters) with system and global configuration off, so what it lists is the
 * repository's own configuration: local, worktree, and each submodule's under .git/modules.
 */
export async function repositoryConfigProblem(ctx: GitCheckContext): Promise<string | undefined> {
  const git = async (args: readonly string[]) => {
    const result = await ctx.io.spawn({
      file: ctx.program,
      args,
      cwd: ctx.cwd,
      env: ctx.env,
      timeoutMs: CHECK_TIMEOUT_MS,
      stdout: { headBytes: 4 * 1024 * 1024, tailBytes: 0 },
      stderr: { headBytes: 4096, tailBytes: 0 },
      signal: ctx.signal,
    });
    const stdout = decodeUtf8(result.stdout.head);
    const stderr = decodeUtf8(result.stderr.head).trim().split("\n")[0] ?? "";
    const complete = result.stdout.totalBytes === result.stdout.head.length;
    return { ok: result.exitCode === 0 && !result.timedOut && complete, stdout, stderr, exitCode: result.exitCode };
  };
  const commonDir = await git(["rev-parse", "--path-format=absolute", "--git-common-dir"]);
  if (!commonDir.ok) {
    // Outside any repository, git has no repository configuration to run programs from.
    if (commonDir.exitCode === 128 && /not a git repository/i.test(commonDir.stderr)) return undefined;
    return `git could not locate the repository to check its configuration (${commonDir.stderr || `exit ${commonDir.exitCode ?? "by signal"}`})`;
  }
  const dir = commonDir.stdout.trim();
  if (!isAbsolute(dir) || dir.includes("\n"))
    return `git could not locate the repository to check its configuration (it answered ${JSON.stringify(dir.slice(0, 200))}; git 2.31 or later is needed)`;
  const configs: { readonly where: string; readonly args: readonly string[] }[] = [
    { where: "the repository's configuration", args: ["config", "--list", "--null"] },
  ];
  const nested = await nestedConfigs(ctx.io, normalize(dir));
  if (typeof nested === "string") return nested;
  for (const file of nested) configs.push({ where: file, args: ["config", "--file", file, "--list", "--null"] });
  for (const config of configs) {
    const listed = await git(config.args);
    if (!listed.ok) return `git could not read ${config.where} to check it (${listed.stderr || `exit ${listed.exitCode ?? "by signal"}`})`;
    for (const [key, value] of parseConfigList(listed.stdout)) {
      const why = programKey(key, value);
      if (why !== undefined)
        return `${config.where} sets ${key} (${why}); git does not run in a repository configured to run programs — remove the key to allow it`;
    }
  }
  return undefined;
}

/** `config` files of submodules under <common dir>/modules (nested ones too); a string when they cannot all be checked. */
async function nestedConfigs(io: CapabilityIO, commonDir: string): Promise<string[] | string> {
  const found: string[] = [];
  const pending = [join(commonDir, "modules")];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    let entries;
    try {
      entries = (await io.listDirectory(dir)).entries;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === "ENOENT") continue;
      return `${dir} cannot be listed to check the submodules' configuration (${typeof code === "string" ? code : "error"})`;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.kind === "symlink") return `${path} is a symbolic link: the submodules' configuration cannot be checked`;
      if (entry.kind === "file" && entry.name === "config") found.push(path);
      else if (entry.kind === "directory" && !["objects", "refs", "logs", "hooks", "info"].includes(entry.name)) pending.push(path);
      if (found.length + pending.length > MAX_NESTED_CONFIGS * 16) return `${commonDir}/modules holds too much to check`;
    }
    if (found.length > MAX_NESTED_CONFIGS) return `the repository has more than ${MAX_NESTED_CONFIGS} submodule configurations to check`;
  }
  return found;
}
