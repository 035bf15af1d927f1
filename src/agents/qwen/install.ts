import { CANONICAL_EVENTS } from "../../core/events/names.ts";
import { emitCommand, runsHookboxEmitHandler } from "../shared/install/command.ts";
import type { DesiredEntry } from "../shared/install/hook-entries.ts";
import { hookPlans } from "../shared/install/hook-plans.ts";
import { joinPath, userConfigDir } from "../shared/install/paths.ts";
import { selectEvents, timeoutSeconds, type AgentEvents, type JsonDialect } from "../shared/install/plan.ts";
import type { InstallOptions, InstallPlanner } from "../shared/install/types.ts";

/** Qwen Code fires Claude Code's events under Claude's names (0.24.4); its own extras are not installed by default. */
const EVENTS: AgentEvents = Object.fromEntries(CANONICAL_EVENTS.map((name) => [name, name]));

/** Qwen forked Gemini CLI's settings loader: comments are stripped, a trailing comma stops it. */
const DIALECT: JsonDialect = { comments: true, trailingCommas: false, whenInvalid: "Qwen Code stops with a settings error" };

/**
 * Entries name the dialect (`--agent qwen`) although `hookbox emit` tells Qwen's payloads apart
 * by itself (Claude's event names with Gemini's tool names, research §12): detection is a
 * reading of the payload's shape, and a Qwen release that changes that shape would be read as
 * Claude's, whose guards never match `run_shell_command`. The flag cannot be misread.
 * Timeouts are seconds (Qwen multiplies by 1000).
 */
function desiredEntries(options: InstallOptions): DesiredEntry[] {
  return selectEvents("Qwen Code", EVENTS, options).map((event) => {
    const timeout = timeoutSeconds(event);
    const command = emitCommand(options.hookboxCommand ?? "hookbox", event, "qwen", options);
    return { event, handler: { type: "command", command, timeout }, description: `\`${command}\` (timeout ${timeout} s)` };
  });
}

function notes(root: Record<string, unknown>, options: InstallOptions): string[] {
  const lines: string[] = [];
  if (root.disableAllHooks === true) lines.push('! "disableAllHooks" is true in this file: Qwen Code runs no hook until it is removed');
  // Qwen 0.24.4 reads workspace hooks only in trusted folders (Config.getProjectHooks); every folder is trusted while folder trust is off (its default).
  if (options.scope === "project")
    lines.push("! with folder trust on (security.folderTrust.enabled), Qwen Code runs a project's hooks only in a folder you have trusted");
  return lines;
}

export const installer: InstallPlanner = {
  agent: "qwen",
  defaultEvents: Object.keys(EVENTS),
  /** The user's settings are in its config directory (QWEN_HOME, default ~/.qwen); Qwen has no local scope. */
  configPath(scope, dirs) {
    if (scope === "user") return joinPath(userConfigDir(dirs), "settings.json");
    return scope === "project" ? joinPath(dirs.project, ".qwen", "settings.json") : undefined;
  },
  ...hookPlans({
    label: "Qwen Code settings",
    shape: "grouped",
    dialect: DIALECT,
    isHookbox: runsHookboxEmitHandler,
    entries: desiredEntries,
    notes: (root, { options }) => notes(root, options),
  }),
};
