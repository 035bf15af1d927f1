import { groupedImporter, LINGUA_FRANCA_READING } from "../shared/import/grouped.ts";
import type { AgentImporter } from "../shared/import/types.ts";
import { claudeCode } from "./protocol.ts";

/**
 * Claude Code's settings, and a plugin's hooks.json: what a file nothing else recognises is read
 * as. Its commands get Claude's payload and are read as Claude reads them: JSON whatever the exit
 * code, plain stdout as context on the events that take it.
 */
export const importer: AgentImporter = groupedImporter({
  name: "claude",
  label: "Claude Code",
  protocol: claudeCode,
  defaultTimeoutMs: 60_000,
  timeoutUnit: "s",
  matchers: "patterns",
  reading: LINGUA_FRANCA_READING,
  projectVariables: ["CLAUDE_PROJECT_DIR"],
  pluginRootVariables: ["CLAUDE_PLUGIN_ROOT"],
});
