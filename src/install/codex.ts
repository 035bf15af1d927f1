import { emitCommand, runsHookboxEmit } from "./command.ts";
import { hooksSection, mergeGroupedHooks, type DesiredEntry } from "./hook-entries.ts";
import { joinPath } from "./paths.ts";
import { planJsonConfig, selectEvents, timeoutSeconds, type AgentEvents } from "./plan.ts";
import type { InstallOptions, InstallPlanner } from "./types.ts";

/** Codex's events (research §4.3), Claude's names. */
const EVENTS: AgentEvents = Object.fromEntries(
  ["PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart", "PreCompact", "PostCompact", "SubagentStart", "SubagentStop"].map((name) => [name, name]),
);

/** hooks.json may hold only these at the top: Codex refuses the whole file otherwise (research §4.2). */
const ROOT_KEYS: ReadonlySet<string> = new Set(["description", "hooks"]);

function desiredEntries(options: InstallOptions): DesiredEntry[] {
  return selectEvents("Codex", EVENTS, options).map((event) => {
    const timeout = timeoutSeconds(event);
    const command = emitCommand(options.hookboxCommand ?? "hookbox", event, "codex", options.failClosed === true);
    return { event, handler: { type: "command", command, timeout }, description: `\`${command}\` (timeout ${timeout} s)` };
  });
}

function notes(root: Record<string, unknown>, changed: boolean): string[] {
  const lines: string[] = [];
  const foreign = Object.keys(root).filter((key) => !ROOT_KEYS.has(key));
  if (foreign.length > 0) lines.push(`! Codex refuses a hooks.json with top-level keys other than "description" and "hooks" (found ${foreign.map((key) => `"${key}"`).join(", ")})`);
  // Untrusted hooks are skipped silently (research §4.2).
  if (changed) lines.push("! Codex runs new or changed hooks only after you trust them: review them in /hooks");
  return lines;
}

export const codexInstaller: InstallPlanner = {
  agent: "codex",
  defaultEvents: Object.keys(EVENTS),
  configPath: (scope, dirs) => (scope === "user" ? joinPath(dirs.home, ".codex", "hooks.json") : joinPath(dirs.project, ".codex", "hooks.json")),
  planInstall(existingText, options = {}) {
    const entries = desiredEntries(options);
    const file = options.file ?? "Codex hooks.json";
    return planJsonConfig(existingText, file, (root) => {
      const merged = mergeGroupedHooks(hooksSection(root, file), entries, (handler) => runsHookboxEmit(handler.command), file);
      return { ...merged, summary: [...merged.summary, ...notes(root, merged.mutated || existingText === undefined)] };
    });
  },
};
