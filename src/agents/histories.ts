// The agents whose on-disk history `hookbox replay` reads: one reader per agent, in its folder
// (src/agents/<agent>/history.ts), what they share in src/agents/shared/history. Pure: each reader
// is given the text of a file, and a small file interface to find them.
import { claudeHistory } from "./claude/history.ts";
import { codexHistory } from "./codex/history.ts";
import { copilotHistory } from "./copilot/history.ts";
import { geminiHistory } from "./gemini/history.ts";
import { qwenHistory } from "./qwen/history.ts";
import type { HistoryFormat } from "./shared/history/types.ts";

export type { HistoryCall, HistoryFormat, HistoryFs, HistoryPlaces, HistoryProblem, HistoryRead } from "./shared/history/types.ts";
export { firstLine } from "./shared/history/lines.ts";

/** Agents with a history Hookbox reads. */
export const HISTORIES = {
  claude: claudeHistory,
  codex: codexHistory,
  gemini: geminiHistory,
  qwen: qwenHistory,
  copilot: copilotHistory,
} as const satisfies Readonly<Record<string, HistoryFormat>>;

export type HistoryAgent = keyof typeof HISTORIES;

export const HISTORY_AGENTS = Object.keys(HISTORIES) as HistoryAgent[];

export function isHistoryAgent(name: string): name is HistoryAgent {
  return Object.hasOwn(HISTORIES, name);
}

/** The order a file given without --agent is offered to the readers: the most specific first (Qwen's lines look like Claude's, with `parts`). */
const DETECTION_ORDER: readonly HistoryAgent[] = ["codex", "copilot", "gemini", "qwen", "claude"];

/** The history format of a file given by path, from its path and first line; undefined when none claims it. */
export function historyFormatOf(path: string, first: string): HistoryFormat | undefined {
  return DETECTION_ORDER.map((agent) => HISTORIES[agent]).find((format) => format.recognizes(path, first));
}
