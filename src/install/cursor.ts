import { HookboxError } from "../errors.ts";
import { emitCommand, runsHookboxEmitHandler } from "./command.ts";
import { hooksSection, mergeFlatHooks, type DesiredEntry } from "./hook-entries.ts";
import { removeHookboxHooks } from "./hook-removal.ts";
import { joinPath } from "./paths.ts";
import { planJsonConfig, selectEvents, type AgentEvents, type JsonDialect } from "./plan.ts";
import type { InstallOptions, InstallPlanner } from "./types.ts";

/**
 * Cursor's events (research §3.2). By default the all-tool events of current Cursor versions:
 * preToolUse covers shell, MCP and file tools, and installing the older dedicated hooks as well
 * would evaluate one action twice. They can still be asked for by name.
 */
const EVENTS: AgentEvents = {
  preToolUse: "PreToolUse",
  postToolUse: "PostToolUse",
  postToolUseFailure: "PostToolUseFailure",
  beforeSubmitPrompt: "UserPromptSubmit",
  stop: "Stop",
  sessionStart: "SessionStart",
  sessionEnd: "SessionEnd",
  subagentStart: "SubagentStart",
  subagentStop: "SubagentStop",
  preCompact: "PreCompact",
  beforeShellExecution: "cursor.before_shell_execution",
  beforeMCPExecution: "cursor.before_mcp_execution",
  beforeReadFile: "cursor.before_read_file",
  afterShellExecution: "cursor.after_shell_execution",
  afterMCPExecution: "cursor.after_mcp_execution",
  afterFileEdit: "cursor.after_file_edit",
};
/** How Cursor parses hooks.json is not documented: no note either way. */
const DIALECT: JsonDialect = { comments: undefined, trailingCommas: undefined, whenInvalid: "Cursor may refuse the file" };

const DEFAULT_EVENTS = ["preToolUse", "postToolUse", "postToolUseFailure", "beforeSubmitPrompt", "stop", "sessionStart", "sessionEnd", "subagentStart", "subagentStop", "preCompact"];

/**
 * No `timeout`: its unit is not confirmed for Cursor (research §3.1, §8.3), and a value read in
 * the wrong unit would kill every hook at once — which fails open. Cursor's default applies.
 */
function desiredEntries(options: InstallOptions): DesiredEntry[] {
  return selectEvents("Cursor", EVENTS, options, DEFAULT_EVENTS).map((event) => {
    const command = emitCommand(options.hookboxCommand ?? "hookbox", event, "cursor", options.failClosed === true);
    // Cursor's own failClosed makes a crash or timeout of the hook block too (research §3.3).
    return { event, handler: { command, ...(options.failClosed && { failClosed: true }) }, description: `\`${command}\`` };
  });
}

export const cursorInstaller: InstallPlanner = {
  agent: "cursor",
  defaultEvents: DEFAULT_EVENTS,
  configPath(scope, dirs) {
    if (scope === "local") return undefined;
    return scope === "user" ? joinPath(dirs.home, ".cursor", "hooks.json") : joinPath(dirs.project, ".cursor", "hooks.json");
  },
  planInstall(existingText, options = {}) {
    const entries = desiredEntries(options);
    const file = options.file ?? "Cursor hooks.json";
    return planJsonConfig(
      existingText,
      file,
      DIALECT,
      (root) => {
        // hooks.json requires "version": 1 (research §3.1).
        if (root.version !== undefined && root.version !== 1) throw new HookboxError("config_invalid", `${file}: "version" is ${JSON.stringify(root.version)}; Hookbox knows version 1 only. Nothing was changed.`);
        const addsVersion = root.version === undefined;
        if (addsVersion) root.version = 1;
        const merged = mergeFlatHooks(hooksSection(root, file), entries, runsHookboxEmitHandler, file);
        return { summary: addsVersion && existingText?.trim() ? ['+ "version": 1', ...merged.summary] : merged.summary, mutated: merged.mutated || addsVersion };
      },
      { creates: true },
    );
  },
  /** "version": 1 stays: the file may have had it before Hookbox (an exact restore, from the install record, takes it out when Hookbox added it). */
  planUninstall(existingText, options = {}) {
    const file = options.file ?? "Cursor hooks.json";
    return planJsonConfig(existingText, file, DIALECT, (root) => removeHookboxHooks(root, "flat", runsHookboxEmitHandler, file), { creates: false });
  },
};
