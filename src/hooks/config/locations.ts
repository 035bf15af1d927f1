import type { RuntimeHost } from "../../platform/index.ts";
import type { HookSource } from "../registry/sources.ts";
import { agentDirs, type ConfigDirAgent } from "../../agents/config-dirs.ts";
import { dirname, resolvePath } from "../../core/text/posix-path.ts";
import { systemPolicyLocation, type SystemPolicyLocation } from "./system-tier.ts";
import { defaultSocketPath, SOCKET_VARIABLE } from "../../core/wire/socket.ts";

/**
 * Where Hookbox looks for things, from flags, HOOKBOX_SOCKET / HOOKBOX_CONFIG and the XDG
 * environment (a flag wins over its variable, the variable over the default). The operator file
 * is user-level only (or --config / HOOKBOX_CONFIG): a repository's own files must never widen
 * what its hooks may do.
 */
export interface Locations {
  readonly project: string;
  readonly hookSources: readonly HookSource[];
  /** The operator file to read, and whether it was asked for explicitly (then it must exist). */
  readonly operatorFile: { readonly path: string; readonly explicit: boolean };
  readonly dataDir: string;
  readonly socketPath: string;
  /** Standard hooks enabled from the command line (--builtin), on top of the operator file's `builtin`; "all" for every one. */
  readonly builtin: readonly string[];
  /** The user's own hooks, part of every project's hook set (unless --hooks replaces the defaults). */
  readonly userHooksDir: string;
  /** $XDG_CONFIG_HOME, or ~/.config. */
  readonly configHome: string;
  /** Where the agents whose user settings a variable can move keep them (the agent table's configDir): self-protect protects them there. */
  readonly agentDirs: Readonly<Record<ConfigDirAgent, string>>;
  /** The system policy (root's /etc/hookbox/hookbox.yaml): applied when it is there; required under `emit --system`. */
  readonly system: SystemPolicyLocation;
}

export interface LocationFlags {
  readonly hooks?: readonly string[];
  readonly config?: string;
  readonly socket?: string;
  readonly dataDir?: string;
  readonly builtin?: readonly string[];
  /** --system-root DIR: the system tier under DIR instead of / (tests, images). A flag only: the user sets the environment. */
  readonly systemRoot?: string;
  /** emit --system: the entry an agent's managed settings run; the system policy must be there. */
  readonly system?: boolean;
}

/** The variables that stand in for --socket and --config (relative paths are taken from the working directory, as the flags'). */
export const LOCATION_VARIABLES = { socket: SOCKET_VARIABLE, config: "HOOKBOX_CONFIG" } as const;

export function resolveLocations(host: Pick<RuntimeHost, "env" | "homeDir" | "cwd">, flags: LocationFlags): Locations {
  const env = host.env;
  const config = flags.config || env[LOCATION_VARIABLES.config] || undefined;
  const socket = flags.socket || env[LOCATION_VARIABLES.socket] || undefined;
  const home = host.homeDir();
  const project = host.cwd();
  const configHome = env.XDG_CONFIG_HOME || `${home}/.config`;
  const absolute = (path: string): string => (path.startsWith("/") ? path : `${project}/${path}`);
  const hookSources: HookSource[] = flags.hooks?.length
    ? flags.hooks.map((dir) => ({ dir: absolute(dir), origin: "dir", required: true }))
    : [
        { dir: `${project}/.hookbox/hooks`, origin: "project", required: false },
        { dir: `${configHome}/hookbox/hooks`, origin: "user", required: false },
      ];
  // NOTE: hookSources' project entry is the process's working directory, for commands run by a
  // person in a project (validate, list). Events resolve their project from the event instead.
  return {
    project,
    hookSources,
    operatorFile: config ? { path: absolute(config), explicit: true } : { path: `${configHome}/hookbox/hookbox.yaml`, explicit: false },
    dataDir: flags.dataDir ? absolute(flags.dataDir) : `${env.XDG_DATA_HOME || `${home}/.local/share`}/hookbox`,
    socketPath: socket ? absolute(socket) : defaultSocketPath(env, home),
    userHooksDir: `${configHome}/hookbox/hooks`,
    configHome,
    agentDirs: agentDirs({ env, home, project }),
    system: systemPolicyLocation(flags.systemRoot === undefined ? undefined : absolute(flags.systemRoot), flags.system === true),
    builtin: (flags.builtin ?? [])
      .flatMap((value) => value.split(","))
      .map((id) => id.trim())
      .filter(Boolean),
  };
}

/** The operator file's hooks_dirs as directories: relative to the file (or to where it would be). */
export function operatorHooksDirs(operatorFile: string | undefined, userHooksDir: string, dirs: readonly string[]): string[] {
  return dirs.map((dir) => resolvePath(dirname(operatorFile ?? `${userHooksDir}/..`), dir));
}
