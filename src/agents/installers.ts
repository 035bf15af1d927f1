// The installers' view of the agent table (src/agents/table.ts): the agents `hookbox install-agent`
// configures, each one's planner (src/agents/<agent>/install.ts; what the planners share is in
// src/agents/shared/install) handed its config directory as the table resolves it, and the
// agent-specific steps around them (Codex's trust). Pure (text in, text out): no file system, no runtime APIs.
import { HookboxError } from "../core/errors.ts";
import { settingsEntries, type InstalledEntry } from "./shared/install/entries.ts";
import { agentConfigDir } from "./shared/install/paths.ts";
import {
  INSTALL_SCOPES,
  type AgentTrust,
  type InstallDirs,
  type InstallOptions,
  type InstallPlan,
  type InstallPlanner,
  type InstallScope,
} from "./shared/install/types.ts";
import type { AgentRow } from "./shared/row.ts";
import { AGENTS, agentRow, type InstallAgent } from "./table.ts";

export {
  INSTALL_SCOPES,
  type AgentTrust,
  type HttpHookOptions,
  type InstallAgent,
  type InstallDirs,
  type InstallOptions,
  type InstallPlan,
  type InstallPlanner,
  type InstallScope,
  type TrustChange,
  type TrustIO,
} from "./shared/install/types.ts";
export type { InstalledEntry } from "./shared/install/entries.ts";
export { runsHookboxEmit } from "./shared/install/command.ts";

/** `dirs` with the agent's config directory as its row resolves it there (its variable, else its default under home). */
export function dirsOf(row: AgentRow, dirs: InstallDirs): InstallDirs {
  return row.configDir ? { ...dirs, configDir: agentConfigDir(row.configDir, dirs) } : dirs;
}

/** The rows' installers, loaded, by agent, in the table's order: each planner gets its config directory from its row. */
export async function installersOf(rows: readonly AgentRow[]): Promise<Readonly<Record<string, InstallPlanner>>> {
  const loaded = await Promise.all(
    rows.map(async (row) => {
      if (row.installer === undefined) return [];
      const { installer } = await row.installer();
      return [[row.name, { ...installer, configPath: (scope: InstallScope, dirs: InstallDirs) => installer.configPath(scope, dirsOf(row, dirs)) }]];
    }),
  );
  return Object.fromEntries(loaded.flat());
}

/** The rows' trust steps, loaded, by agent. */
async function trustsOf(rows: readonly AgentRow[]): Promise<Readonly<Record<string, AgentTrust>>> {
  const loaded = await Promise.all(rows.map(async (row) => (row.trust ? [[row.name, (await row.trust()).trust] as const] : [])));
  return Object.fromEntries(loaded.flat());
}

/**
 * The agents `hookbox install-agent` configures (the rows with an installer), in the table's order.
 * Loaded with a top-level await, as importers.ts and doctor.ts load theirs: this module is off
 * emit's path (test/architecture/agents.test.ts checks both that and the binary's awaits).
 */
export const INSTALLERS = (await installersOf(AGENTS)) as Readonly<Record<InstallAgent, InstallPlanner>>;
export const INSTALL_AGENTS = Object.keys(INSTALLERS) as readonly InstallAgent[];
const TRUSTS = await trustsOf(AGENTS);

export function isInstallAgent(name: string): name is InstallAgent {
  return Object.hasOwn(INSTALLERS, name);
}

/** `dirs` for `agent`, with its config directory resolved: what its trust and doctor steps are given. */
export function installDirs(agent: InstallAgent, dirs: InstallDirs): InstallDirs {
  const row = agentRow(agent);
  return row ? dirsOf(row, dirs) : dirs;
}

/** The trust the agent records outside its hook settings (install-agent --trust), if it has one. */
export function trustOf(agent: InstallAgent): AgentTrust | undefined {
  return TRUSTS[agent];
}

/** "Claude Code" or "Codex and Copilot CLI": the agents of the table that `has` something, for messages. */
function whoHas(has: (row: AgentRow) => boolean): string {
  return AGENTS.filter(has)
    .map((row) => row.displayName)
    .join(" and ");
}

/** The agents `--trust` is for, and what it records: the beginning of its help line. */
export const TRUST_HELP = AGENTS.flatMap((row) => (TRUSTS[row.name] ? [`${row.displayName} only: ${TRUSTS[row.name]?.help}`] : [])).join("; ");

/** "--trust is for Codex only (…)": the error for an agent without a trust step. */
export function noTrustMessage(): string {
  const trusts = Object.values(TRUSTS).map((trust) => trust.records);
  return `--trust is for ${whoHas((row) => TRUSTS[row.name] !== undefined)} only (${trusts.join("; ")})`;
}

/** What install-agent's help says of each agent besides the others, a paragraph each, in the table's order. */
export const INSTALL_HELP: readonly string[] = INSTALL_AGENTS.flatMap((agent) => INSTALLERS[agent].help ?? []);

/** Who --http is for (the planners that take it): the beginning of its help line. */
export const HTTP_AGENTS = whoHas((row) => isInstallAgent(row.name) && INSTALLERS[row.name].http !== undefined);

/** The agents that have `scope`, and where it is for each (relative to the project, or under ~): Claude Code, .claude/settings.local.json. */
export function scopeOwners(scope: InstallScope): { readonly displayName: string; readonly path: string }[] {
  return AGENTS.flatMap((row) => {
    const path = "installer" in row ? INSTALLERS[row.name].configPath(scope, { home: "~", project: "." }) : undefined;
    return path === undefined ? [] : [{ displayName: row.displayName, path: path.replace(/^\.\//, "") }];
  });
}

/** Where `agent` keeps its hooks for `scope` (research §8.4); a usage error for a scope the agent does not have. */
export function configPath(agent: InstallAgent, scope: InstallScope, dirs: InstallDirs): string {
  const path = INSTALLERS[agent].configPath(scope, dirs);
  if (path === undefined) {
    const scopes = INSTALL_SCOPES.filter((other) => INSTALLERS[agent].configPath(other, dirs) !== undefined).map((other) => `--${other}`);
    const owners = scopeOwners(scope).map((owner) => `${owner.displayName}'s ${owner.path}`);
    throw new HookboxError(
      "usage",
      `--${scope} does not apply to ${agent}: ${owners.length === 0 ? "" : `it is ${owners.join(", ")}; `}${agent} has ${scopes.join(" and ")}`,
    );
  }
  return path;
}

/** The agent's config file with Hookbox's entries merged in; a second run with the same options changes nothing. */
export function planInstall(agent: InstallAgent, existingText: string | undefined, options: InstallOptions = {}): InstallPlan {
  if (options.http !== undefined && INSTALLERS[agent].http === undefined) {
    throw new HookboxError("usage", `--http is for ${HTTP_AGENTS} only (its type: "http" hooks); ${agent} runs \`hookbox emit\``);
  }
  return INSTALLERS[agent].planInstall(existingText, options);
}

/** The agent's config file without Hookbox's entries; unchanged (changed: false) when it has none. */
export function planUninstall(agent: InstallAgent, existingText: string | undefined, options: Pick<InstallOptions, "file"> = {}): InstallPlan {
  return INSTALLERS[agent].planUninstall(existingText, options);
}

/**
 * Hookbox's entries in a file of `agent` (its hook settings, or what its planner reads instead:
 * opencode's plugin). A file that cannot be parsed throws (the caller reports the file).
 */
export function installedEntries(agent: InstallAgent, text: string, file: string): InstalledEntry[] {
  const planner = INSTALLERS[agent];
  return planner.entries ? planner.entries(text, file) : settingsEntries(text, file);
}
