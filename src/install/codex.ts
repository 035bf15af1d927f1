import { emitCommand, runsHookboxEmitHandler } from "./command.ts";
import type { DesiredEntry } from "./hook-entries.ts";
import { hookPlans } from "./hook-plans.ts";
import { agentConfigDir, joinPath } from "./paths.ts";
import { selectEvents, timeoutSeconds, type AgentEvents, type JsonDialect } from "./plan.ts";
import type { InstallOptions, InstallPlanner } from "./types.ts";

/** Codex's events (research §4.3), Claude's names. */
const EVENTS: AgentEvents = Object.fromEntries(
  ["PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart", "PreCompact", "PostCompact", "SubagentStart", "SubagentStop"].map((name) => [name, name]),
);

/** hooks.json may hold only these at the top: Codex refuses the whole file otherwise (research §4.2). */
const ROOT_KEYS: ReadonlySet<string> = new Set(["description", "hooks"]);

/** hooks.json is read with serde_json: strict JSON. */
const DIALECT: JsonDialect = { comments: false, trailingCommas: false, whenInvalid: "Codex refuses the file, and none of its hooks run" };

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
  /** CODEX_HOME moves the user's Codex directory (default ~/.codex); Codex has no local scope. */
  configPath(scope, dirs) {
    if (scope === "user") return joinPath(agentConfigDir(dirs.env?.CODEX_HOME, dirs.project, joinPath(dirs.home, ".codex")), "hooks.json");
    return scope === "project" ? joinPath(dirs.project, ".codex", "hooks.json") : undefined;
  },
  ...hookPlans({ label: "Codex hooks.json", shape: "grouped", dialect: DIALECT, isHookbox: runsHookboxEmitHandler, entries: desiredEntries, notes: (root, { changed }) => notes(root, changed) }),
};
