import { groupedImporter } from "../shared/import/grouped.ts";
import type { AgentImporter } from "../shared/import/types.ts";
import { GEMINI_ONLY_EVENTS, geminiCli } from "./protocol.ts";

/** Gemini CLI's settings (and an extension's hooks.json): a file under .gemini/, or one naming Gemini's own events. */
function isGeminiFile(path: string, root: Record<string, unknown>): boolean {
  const hooks = root.hooks !== null && typeof root.hooks === "object" ? (root.hooks as Record<string, unknown>) : {};
  return path.includes("/.gemini/") || Object.keys(hooks).some((name) => GEMINI_ONLY_EVENTS.has(name));
}

/**
 * Gemini CLI's hooks: timeouts in milliseconds, matchers exact over its own tool names, answers
 * read only on exit 0 (no `decision.behavior`; `tool_input` rewrites), plain text shown to the user
 * and any exit above 1 a denial.
 */
export const importer: AgentImporter = groupedImporter({
  name: "gemini",
  label: "Gemini CLI",
  protocol: geminiCli,
  defaultTimeoutMs: 60_000,
  timeoutUnit: "ms",
  matchers: "exact",
  reading: {
    stdin: "nested",
    answer: "hook_specific",
    decisionBehavior: false,
    toolInputRewrite: true,
    jsonOnAnyExit: false,
    plainText: "user_message",
    exitAboveOneDenies: true,
  },
  projectVariables: ["GEMINI_PROJECT_DIR"],
  pluginRootVariables: ["extensionPath"],
  guess: { order: 2, matches: isGeminiFile },
});
