// The config directories' view of the agent table (src/agents/table.ts): the agents whose user
// settings a variable can move (CLAUDE_CONFIG_DIR …), where those settings are on this machine, and
// their names among self-protect's `${…}` locations, which the hook set's identity carries too.
import { agentConfigDir } from "./shared/install/paths.ts";
import type { AgentRow } from "./shared/row.ts";
import { AGENTS, type AgentLocationName, type ConfigDirAgent } from "./table.ts";

export type { AgentLocationName, ConfigDirAgent } from "./table.ts";

/** One agent whose config directory a variable moves. */
export interface AgentConfigDirView {
  readonly agent: ConfigDirAgent;
  readonly displayName: string;
  /** The variable: CLAUDE_CONFIG_DIR. */
  readonly env: string;
  /** Its name among self-protect's `${…}` locations: the variable in lower case (claude_config_dir). */
  readonly location: AgentLocationName;
}

/** Where a process runs: its environment, home and project directory. */
export interface Whereabouts {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  readonly project: string;
}

/** The rows with a config directory, in the table's order. */
export function configDirsOf(rows: readonly AgentRow[]): { agent: string; displayName: string; env: string; location: string }[] {
  return rows.flatMap((row) =>
    row.configDir ? [{ agent: row.name, displayName: row.displayName, env: row.configDir.env, location: row.configDir.env.toLowerCase() }] : [],
  );
}

/** The agents whose config directory a variable moves, in the table's order. */
export const AGENT_CONFIG_DIRS = configDirsOf(AGENTS) as readonly AgentConfigDirView[];

/** Where those agents keep their settings here, by agent, in the table's order. */
export function agentDirsOf(rows: readonly AgentRow[], dirs: Whereabouts): Record<string, string> {
  return Object.fromEntries(rows.flatMap((row) => (row.configDir ? [[row.name, agentConfigDir(row.configDir, dirs)]] : [])));
}

/** Where the agents whose config directory a variable moves keep it here: the variable (relative: from `project`), else the default under `home`. */
export function agentDirs(dirs: Whereabouts): Readonly<Record<ConfigDirAgent, string>> {
  return agentDirsOf(AGENTS, dirs) as Record<ConfigDirAgent, string>;
}

/** The same directories by their self-protect location names (claude_config_dir …). */
export function agentLocations(dirs: Readonly<Record<ConfigDirAgent, string>>): Readonly<Record<AgentLocationName, string>> {
  return Object.fromEntries(AGENT_CONFIG_DIRS.map(({ agent, location }) => [location, dirs[agent]])) as Record<AgentLocationName, string>;
}
