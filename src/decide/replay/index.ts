// src/decide/replay owns `hookbox replay` (sessions decided again, no effect); it must not import src/serve or src/cli.
// Recorded calls (src/agents/<agent>/history.ts) are decided by the one evaluator with a capability host that makes no
// effect (effects.ts), reported per hook (report.ts) or compared between two hook sets (compare.ts); its records stay
// in memory and never reach the audit log.
export { replayCalls, type ReplayedEvent, type ReplayHookSet, type ReplaySetup } from "./engine.ts";
export { buildReport, type ReplayReport } from "./report.ts";
export { compareReplays, type ReplayComparison } from "./compare.ts";
export { gatherHistory } from "./sources.ts";
export { readSavedReports, saveReport, type SavedReport } from "./saved.ts";
