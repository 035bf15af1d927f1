// The histories' view of the agent table (src/agents/table.ts): the agents whose on-disk history
// `hookbox replay` reads, one reader per agent in its folder (src/agents/<agent>/history.ts), what
// they share in src/agents/shared/history. Pure: each reader is given the text of a file, and a
// small file interface to find them.
import { agentConfigDir } from "./shared/install/paths.ts";
import type { HistoryFormat } from "./shared/history/types.ts";
import type { AgentRow } from "./shared/row.ts";
import { AGENTS, type HistoryAgent } from "./table.ts";

export type { HistoryAgent } from "./table.ts";
export type { HistoryCall, HistoryFormat, HistoryFs, HistoryPlaces, HistoryProblem, HistoryRead } from "./shared/history/types.ts";
export { firstLine } from "./shared/history/lines.ts";

/** The rows' history readers, loaded, by agent, in the table's order: each finds its sessions under the config directory its row resolves. */
export async function historiesOf(rows: readonly AgentRow[]): Promise<Readonly<Record<string, HistoryFormat>>> {
  const loaded = await Promise.all(
    rows.map(async (row) => {
      if (row.history === undefined) return [];
      const { history } = await row.history();
      const configDir = row.configDir;
      const format: HistoryFormat = {
        ...history,
        sessionsOf: (project, places, fs) =>
          history.sessionsOf(project, configDir ? { ...places, configDir: agentConfigDir(configDir, { ...places, project }) } : places, fs),
      };
      return [[row.name, format] as const];
    }),
  );
  return Object.fromEntries(loaded.flat());
}

/** The order a file given by path is offered to the readers (each reader's recognizeOrder, lowest first). */
export function recognitionOrderOf(histories: Readonly<Record<string, HistoryFormat>>): HistoryFormat[] {
  return Object.values(histories).sort((a, b) => a.recognizeOrder - b.recognizeOrder);
}

/** Agents with a history Hookbox reads (top-level await, as installers.ts: off emit's path). */
export const HISTORIES = (await historiesOf(AGENTS)) as Readonly<Record<HistoryAgent, HistoryFormat>>;

export const HISTORY_AGENTS = Object.keys(HISTORIES) as HistoryAgent[];

export function isHistoryAgent(name: string): name is HistoryAgent {
  return Object.hasOwn(HISTORIES, name);
}

const RECOGNITION_ORDER = recognitionOrderOf(HISTORIES);

/** The history format of a file given by path, from its path and first line; undefined when none claims it. */
export function historyFormatOf(path: string, first: string): HistoryFormat | undefined {
  return RECOGNITION_ORDER.find((format) => format.recognizes(path, first));
}
