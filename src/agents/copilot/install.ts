import { HookboxError } from "../../core/errors.ts";
import { COPILOT_EVENT_NAMES } from "./protocol.ts";
import { emitCommand, runsHookboxEmit } from "../shared/install/command.ts";
import type { DesiredEntry, MergeResult } from "../shared/install/hook-entries.ts";
import { hookPlans } from "../shared/install/hook-plans.ts";
import { joinPath, userConfigDir } from "../shared/install/paths.ts";
import { selectEvents, timeoutSeconds, type AgentEvents, type JsonDialect } from "../shared/install/plan.ts";
import type { InstallOptions, InstallPlanner } from "../shared/install/types.ts";

/**
 * Copilot CLI's events in their camelCase spelling, which gets camelCase payloads (research §5).
 * `notification` is left out by default: Copilot fires it asynchronously and never waits for it.
 */
const EVENTS: AgentEvents = COPILOT_EVENT_NAMES;
const DEFAULT_EVENTS = Object.keys(EVENTS).filter((name) => name !== "notification");

/** Hookbox's own file in Copilot's hook directories: the user's other files there are never touched. */
const FILE_NAME = "hookbox.json";

/** Copilot reads its hook files with JSON.parse (1.0.102). */
const DIALECT: JsonDialect = { comments: false, trailingCommas: false, whenInvalid: "Copilot CLI skips the file, and none of its hooks run" };

/** Copilot's handlers name their command per shell: `bash` (macOS, Linux) and `powershell` (Windows). */
function commandOf(handler: Readonly<Record<string, unknown>>): unknown {
  return handler.bash ?? handler.command;
}

function isHookboxHandler(handler: Readonly<Record<string, unknown>>): boolean {
  return runsHookboxEmit(commandOf(handler)) || runsHookboxEmit(handler.powershell);
}

function desiredEntries(options: InstallOptions): DesiredEntry[] {
  return selectEvents("Copilot CLI", EVENTS, options, DEFAULT_EVENTS).map((event) => {
    const timeoutSec = timeoutSeconds(EVENTS[event] as string);
    const command = emitCommand(options.hookboxCommand ?? "hookbox", event, "copilot", options);
    return { event, handler: { type: "command", bash: command, timeoutSec }, description: `\`${command}\` (timeout ${timeoutSec} s)` };
  });
}

/** A hook file needs "version": 1 (research §5). */
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
  agent: "copilot",
  defaultEvents: DEFAULT_EVENTS,
  /** The user's hooks are in its config directory (COPILOT_HOME, default ~/.copilot); Copilot has no local scope. */
  configPath(scope, dirs) {
    if (scope === "user") return joinPath(userConfigDir(dirs), "hooks", FILE_NAME);
    return scope === "project" ? joinPath(dirs.project, ".github", "hooks", FILE_NAME) : undefined;
  },
  ...hookPlans({
    label: "Copilot CLI hooks file",
    shape: "flat",
    dialect: DIALECT,
    isHookbox: isHookboxHandler,
    entries: desiredEntries,
    prepare: requireVersion,
    // Copilot 1.0.102 loads a repository's .github/hooks only in a folder the user has trusted.
    notes: (_root, { options }) =>
      options.scope === "project"
        ? [
            "! Copilot CLI runs a repository's .github/hooks only in a folder you have trusted: start copilot there once and trust it (copilot -p runs them only after that)",
          ]
        : [],
  }),
};
