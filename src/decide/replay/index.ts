// src/decide/replay owns `hookbox replay`: recorded sessions (src/agents/<agent>/history.ts) decided
// again by the one evaluator with no effect (effects.ts), reported per hook (report.ts) or compared
// between two hook sets (compare.ts). It must not import src/serve or src/cli, nor write to the
// audit log: its records stay in memory.
export { replayCalls, type ReplayedEvent, type ReplayHookSet, type ReplaySetup } from "./engine.ts";
export { buildReport, type ReplayReport } from "./report.ts";
export { compareReplays, type ReplayComparison } from "./compare.ts";
export { gatherHistory } from "./sources.ts";
export { readSavedReports, saveReport, type SavedReport } from "./saved.ts";
