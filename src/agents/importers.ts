// The importers' view of the agent table (src/agents/table.ts): the agents whose hook settings
// `hookbox import` reads (src/agents/<agent>/import.ts; what they share is src/agents/shared/import),
// which one a file is when no --agent says, and how each agent's commands are run once imported.
import type { AgentImporter, CommandReading, ImportPlan, Json } from "./shared/import/types.ts";
import type { AgentRow } from "./shared/row.ts";
import { fallbackOf } from "./protocols.ts";
import { AGENTS, type ImportAgent } from "./table.ts";

export type { ImportAgent } from "./table.ts";
export type { CommandReading, ImportDialect, ImportedHook, ImportedMatch, ImportPlan, Json } from "./shared/import/types.ts";
export { importedOnError, isObject, kebab, shellRun } from "./shared/import/types.ts";

/** The rows' importers, loaded, by agent, in the table's order. */
export async function importersOf(rows: readonly AgentRow[]): Promise<Readonly<Record<string, AgentImporter>>> {
  const loaded = await Promise.all(rows.map(async (row) => (row.importer ? [[row.name, (await row.importer()).importer] as const] : [])));
  return Object.fromEntries(loaded.flat());
}

/** The agent a hook settings file is when no --agent says: the first whose guess matches (lowest order first), else `fallback`. */
export function guessOf(importers: Readonly<Record<string, AgentImporter>>, fallback: string): (path: string, root: Json) => string {
  const guesses = Object.entries(importers)
    .flatMap(([name, importer]) => (importer.guess ? [{ name, ...importer.guess }] : []))
    .sort((a, b) => a.order - b.order);
  return (path, root) => guesses.find((guess) => guess.matches(path, root))?.name ?? fallback;
}

/** The agents whose hook settings `hookbox import` reads. */
export const IMPORTERS = (await importersOf(AGENTS)) as Readonly<Record<ImportAgent, AgentImporter>>;
export const IMPORT_AGENTS = Object.keys(IMPORTERS) as readonly ImportAgent[];

export function isImportAgent(name: string): name is ImportAgent {
  return Object.hasOwn(IMPORTERS, name);
}

export const guessImportAgent = guessOf(IMPORTERS, fallbackOf(AGENTS)) as (path: string, root: Json) => ImportAgent;

/** How each agent's commands read their event and are read back, for the handler every imported command hook runs. */
export const COMMAND_READINGS = Object.fromEntries(IMPORT_AGENTS.map((agent) => [agent, IMPORTERS[agent].reading])) as Readonly<
  Record<ImportAgent, CommandReading>
>;

/** Every importer's variables of one kind, each once: a file of one agent may well be written with another's. */
function variables(kind: "projectVariables" | "pluginRootVariables"): string[] {
  return [...new Set(IMPORT_AGENTS.flatMap((agent) => IMPORTERS[agent][kind]))];
}

/** The hook settings at `path` (parsed: `root`) read as `agent`'s; `pluginRoot` when it is a plugin's hooks/hooks.json. */
export function readAgentImport(agent: ImportAgent, root: Json, path: string, pluginRoot: string | undefined): ImportPlan {
  return IMPORTERS[agent].read(root, {
    path,
    ...(pluginRoot !== undefined && { pluginRoot }),
    projectVariables: variables("projectVariables"),
    pluginRootVariables: variables("pluginRootVariables"),
  });
}
