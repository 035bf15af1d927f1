import { AGENT_CONFIG_DIRS, agentLocations, type AgentLocationName } from "../agents/config-dirs.ts";
import { operatorHooksDirs, type Locations } from "../hooks/config/locations.ts";
import type { OperatorFile } from "../hooks/config/schema.ts";
import { dirname } from "../core/text/posix-path.ts";

/**
 * The standard hook that keeps the agent from switching Hookbox off. It is on wherever the
 * binary carries it, whether or not the operator file's `builtin` names it, and only the
 * operator file turns it off (`hooks: { self-protect: { enabled: false } }`): a project's
 * files cannot (a project hook with its id is a duplicate, hence broken), nor can a flag.
 */
export const SELF_PROTECT_ID = "self-protect";

/**
 * Where Hookbox's state is on this machine, as the hook reads it (`config.locations`). Set by
 * the loader, over whatever a hook file or the operator wrote there: the hook runs in a sandbox
 * with no environment, and these are facts about the machine, not settings. The agents' config
 * directories are there by the lower-case names of their variables (claude_config_dir, codex_home
 * …: the agent table's configDir rows), which self-protect's hook.yaml names in its globs.
 */
export type SelfProtectLocations = HookboxLocations & Readonly<Record<AgentLocationName, string>>;

interface HookboxLocations {
  readonly home: string;
  readonly config_home: string;
  readonly operator_file: string;
  readonly user_hooks_dir: string;
  /** The operator file's hooks_dirs, resolved. */
  readonly hooks_dirs: readonly string[];
  readonly data_dir: string;
  readonly socket_dir: string;
  /** The hookbox executable this process is (as invoked, and its real path); none when running from sources. */
  readonly binaries: readonly string[];
  /** The daemon's pid, when the daemon is the one evaluating. */
  readonly daemon_pids: readonly number[];
}

/** What the machine says, before an operator file names its hooks_dirs. */
export type SelfProtectMachine = Omit<SelfProtectLocations, "hooks_dirs">;

export function selfProtectMachine(
  locations: Locations,
  home: string,
  process: { readonly binaries?: readonly (string | undefined)[]; readonly daemonPid?: number },
): SelfProtectMachine {
  const binaries = [...new Set((process.binaries ?? []).filter((path): path is string => typeof path === "string" && path.startsWith("/")))];
  return {
    home,
    config_home: locations.configHome,
    operator_file: locations.operatorFile.path,
    user_hooks_dir: locations.userHooksDir,
    data_dir: locations.dataDir,
    socket_dir: dirname(locations.socketPath),
    ...agentLocations(locations.agentDirs),
    binaries,
    daemon_pids: process.daemonPid !== undefined ? [process.daemonPid] : [],
  };
}

/**
 * The operator file as it takes effect: self-protect added to the standard hooks unless the
 * operator turned it off (and only when this binary carries it), with the machine's locations
 * as its config. The file's own `builtin` and the flags' are untouched otherwise.
 */
export function withSelfProtect(
  operator: OperatorFile,
  embeddedIds: readonly string[],
  machine: SelfProtectMachine | undefined,
  operatorFile: string | undefined,
): OperatorFile {
  if (machine === undefined) return operator;
  const override = operator.hooks[SELF_PROTECT_ID] ?? {};
  const on = embeddedIds.includes(SELF_PROTECT_ID) && override.enabled !== false;
  const locations: SelfProtectLocations = { ...machine, hooks_dirs: operatorHooksDirs(operatorFile, machine.user_hooks_dir, operator.hooks_dirs) };
  return {
    ...operator,
    builtin: on ? [SELF_PROTECT_ID, ...operator.builtin.filter((id) => id !== SELF_PROTECT_ID)] : operator.builtin,
    hooks: { ...operator.hooks, [SELF_PROTECT_ID]: { ...override, config: { ...override.config, locations } } },
  };
}

/** Is self-protection on under this operator file (for list, validate and doctor)? */
export function selfProtectState(operator: OperatorFile): "on" | "off" {
  return operator.builtin.includes(SELF_PROTECT_ID) && operator.hooks[SELF_PROTECT_ID]?.enabled !== false ? "on" : "off";
}

/**
 * One short line for list, validate and doctor: whether the agent may change Hookbox's state
 * here. Where that state is (selfProtectedPlaces) is doctor's detail: a line of its own each.
 */
export function describeSelfProtection(operator: OperatorFile, home: string): string {
  const locations = operator.hooks[SELF_PROTECT_ID]?.config?.locations as SelfProtectLocations | undefined;
  if (locations === undefined && !operator.builtin.includes(SELF_PROTECT_ID))
    return "not in force: no usable operator file (every event is denied until it is fixed: hookbox validate), or a binary without the standard hooks";
  const file = shortPath(locations?.operator_file ?? "~/.config/hookbox/hookbox.yaml", home);
  if (selfProtectState(operator) === "off") return `OFF: the agent can switch Hookbox off (${file} says hooks: { self-protect: { enabled: false } })`;
  return "on: the agent may not change Hookbox's own state (hookbox doctor lists where it is)";
}

/** Where Hookbox's state is on this machine, as self-protect keeps it from the agent (doctor's detail); none when it is not in force. */
export function selfProtectedPlaces(operator: OperatorFile, home: string): string[] {
  const locations = operator.hooks[SELF_PROTECT_ID]?.config?.locations as SelfProtectLocations | undefined;
  if (locations === undefined || selfProtectState(operator) === "off") return [];
  const short = (path: string): string => shortPath(path, home);
  return [
    `operator file ${short(locations.operator_file)} (only it turns self-protection off: hooks: { self-protect: { enabled: false } })`,
    `user hooks ${short(locations.user_hooks_dir)}`,
    ...locations.hooks_dirs.map((dir) => `hooks_dirs ${short(dir)}`),
    `data ${short(locations.data_dir)}`,
    `socket ${short(locations.socket_dir)}`,
    ...locations.binaries.map((b) => `binary ${short(b)}`),
    ...AGENT_CONFIG_DIRS.map(({ displayName, location }) => `${displayName} ${short(locations[location])}`),
    "every project's .hookbox/, the agents' hook settings, git hooks and config",
  ];
}

function shortPath(path: string, home: string): string {
  return path === home ? "~" : path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}
