import { nameMatches } from "../env/policy.ts";
import { dirname } from "../paths/posix.ts";

/**
 * A command's environment is built, never inherited: a fixed safe set, plus the host variables
 * its grant names (`run[].env`) that the env policy allows. Some names can never be passed,
 * whatever the grants: they change which code a program loads or runs (LD_PRELOAD, DYLD_*,
 * NODE_OPTIONS, BASH_ENV, GIT_* …; Deno #11964 shows LD_PRELOAD turning any allowed program
 * into anything).
 */

export const SAFE_PATH = ["/usr/local/bin", "/usr/bin", "/bin"];

const NEVER_PASSED_PREFIXES = [
  "LD_",
  "DYLD_",
  "GIT_",
  "BASH_FUNC_",
  "MALLOC_",
  "NODE_",
  "NPM_CONFIG_",
  "PYTHON",
  "PERL",
  "RUBY",
  "JAVA_",
  "_JAVA_",
  "JDK_",
  "LESS",
  "GLIBC_",
  "GCONV_",
  "SSH_",
];
const NEVER_PASSED = new Set([
  "PATH",
  "HOME",
  "BASH_ENV",
  "ENV",
  "PAGER",
  "MANPAGER",
  "EDITOR",
  "VISUAL",
  "BROWSER",
  "SHELL",
  "IFS",
  "PS4",
  "SHELLOPTS",
  "BASHOPTS",
  "PROMPT_COMMAND",
  "ZDOTDIR",
  "CDPATH",
  "HOSTALIASES",
  "RESOLV_HOST_CONF",
  "LOCALDOMAIN",
  "RES_OPTIONS",
  "TMPDIR",
  "XDG_CONFIG_HOME",
  "XDG_CONFIG_DIRS",
  "XDG_DATA_DIRS",
  "GEM_HOME",
  "GEM_PATH",
  "RUSTC_WRAPPER",
  "RUSTFLAGS",
  "CARGO_HOME",
  "GOFLAGS",
  "GOPATH",
  "CC",
  "CXX",
  "LDFLAGS",
  "CFLAGS",
  "MAKEFLAGS",
  "VITEST",
  "JEST_CONFIG",
]);

/** Why a variable can never be passed to a command, or undefined. */
export function neverPassed(name: string): string | undefined {
  const upper = name.toUpperCase();
  if (NEVER_PASSED.has(upper)) return `${name} is set by Hookbox or changes what the program loads or runs`;
  const prefix = NEVER_PASSED_PREFIXES.find((candidate) => upper.startsWith(candidate));
  return prefix === undefined ? undefined : `${prefix}* variables change what a program loads or runs`;
}

/** A pattern (NAME or PREFIX_*) that could match a never-passed name: refused when the grant is parsed. */
export function neverPassedPattern(pattern: string): string | undefined {
  if (!pattern.endsWith("*")) return neverPassed(pattern);
  const prefix = pattern.slice(0, -1).toUpperCase();
  const blocked = NEVER_PASSED_PREFIXES.find((candidate) => candidate.startsWith(prefix) || prefix.startsWith(candidate));
  return blocked === undefined ? undefined : `${pattern} would include ${blocked}* variables, which change what a program loads or runs`;
}

export interface ChildEnvInput {
  readonly home: string;
  /** Absolute path of the program: its directory goes first on PATH (node_modules/.bin, a venv's bin). */
  readonly program: string;
  readonly hostEnv: Readonly<Record<string, string | undefined>>;
  /** The grant's env patterns, and the policy's verdict for each concrete name. */
  readonly patterns: readonly string[];
  readonly allowed: (name: string) => boolean;
}

export function childEnvironment(input: ChildEnvInput): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.hostEnv)) {
    if (value === undefined || neverPassed(name) !== undefined) continue;
    if (input.patterns.some((pattern) => nameMatches(pattern, name)) && input.allowed(name)) env[name] = value;
  }
  const path = [...new Set([dirname(input.program), ...SAFE_PATH])].join(":");
  return {
    ...env,
    PATH: path,
    HOME: input.home,
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    // Never prompt (no terminal), never page, and only the transports that run no local program.
    GIT_TERMINAL_PROMPT: "0",
    GIT_PAGER: "cat",
    GIT_ALLOW_PROTOCOL: "file:git:http:https:ssh",
  };
}
