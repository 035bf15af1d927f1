import { HookboxError } from "../../core/errors.ts";
import { emitCommand, runsHookboxEmitHandler } from "../shared/install/command.ts";
import type { DesiredEntry, MergeResult } from "../shared/install/hook-entries.ts";
import { hookPlans } from "../shared/install/hook-plans.ts";
import { joinPath } from "../shared/install/paths.ts";
import { selectEvents, type AgentEvents, type JsonDialect } from "../shared/install/plan.ts";
import type { InstallOptions, InstallPlanner } from "../shared/install/types.ts";

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

const DEFAULT_EVENTS = [
  "preToolUse",
  "postToolUse",
  "postToolUseFailure",
  "beforeSubmitPrompt",
  "stop",
  "sessionStart",
  "sessionEnd",
  "subagentStart",
  "subagentStop",
  "preCompact",
];

/**
 * No `timeout`: its unit is not confirmed for Cursor (research §3.1, §8.3), and a value read in
 * the wrong unit would kill every hook at once — which fails open. Cursor's default applies.
 */
function desiredEntries(options: InstallOptions): DesiredEntry[] {
  return selectEvents("Cursor", EVENTS, options, DEFAULT_EVENTS).map((event) => {
    const command = emitCommand(options.hookboxCommand ?? "hookbox", event, "cursor", options);
    // Cursor's own failClosed makes a crash or timeout of the hook block too (research §3.3).
    return { event, handler: { command, ...(options.failClosed && { failClosed: true }) }, description: `\`${command}\`` };
  });
}

/**
 * hooks.json requires "version": 1 (research §3.1). On uninstall it stays: the file may have had
 * it before Hookbox (an exact restore, from the install record, takes it out when Hookbox added it).
 */
function requireVersion(root: Record<string, unknown>, file: string, existingText: string | undefined): MergeResult {
  if (root.version !== undefined && root.version !== 1)
    throw new HookboxError(
      "config_invalid",
      `${file}: "version" is ${JSON.stringify(root.version)}; Hookbox knows version 1 only. Nothing was changed.`,
    );
  if (root.version === 1) return { summary: [], mutated: false };
  root.version = 1;
  return { summary: existingText?.trim() ? ['+ "version": 1'] : [], mutated: true };
}

export const installer: InstallPlanner = {
  agent: "cursor",
  defaultEvents: DEFAULT_EVENTS,
  configPath(scope, dirs) {
    if (scope === "local") return undefined;
    return scope === "user" ? joinPath(dirs.home, ".cursor", "hooks.json") : joinPath(dirs.project, ".cursor", "hooks.json");
  },
  ...hookPlans({
    label: "Cursor hooks.json",
    shape: "flat",
    dialect: DIALECT,
    isHookbox: runsHookboxEmitHandler,
    entries: desiredEntries,
    prepare: requireVersion,
  }),
};
