import { groupedImporter, LINGUA_FRANCA_READING } from "../shared/import/grouped.ts";
import type { AgentImporter } from "../shared/import/types.ts";
import { codex } from "./protocol.ts";

/** Codex's hooks.json: Claude Code's shape, answers and matchers, with a 600 s default timeout. */
export const importer: AgentImporter = groupedImporter({
  name: "codex",
  label: "Codex",
  protocol: codex,
  defaultTimeoutMs: 600_000,
  timeoutUnit: "s",
  matchers: "patterns",
  reading: LINGUA_FRANCA_READING,
  projectVariables: ["CODEX_PROJECT_DIR"],
  pluginRootVariables: [],
  guess: { order: 3, matches: (path) => path.includes("/.codex/") },
});
