import { GEMINI_EVENT_NAMES } from "./protocol.ts";
import { emitCommand, runsHookboxEmitHandler } from "../shared/install/command.ts";
import type { DesiredEntry } from "../shared/install/hook-entries.ts";
import { hookPlans } from "../shared/install/hook-plans.ts";
import { isJsonObject } from "../shared/install/json-value.ts";
import { joinPath } from "../shared/install/paths.ts";
import { selectEvents, timeoutSeconds, type AgentEvents, type JsonDialect } from "../shared/install/plan.ts";
import type { InstallOptions, InstallPlanner } from "../shared/install/types.ts";

/**
 * The Gemini CLI events Hookbox decodes to a native event (research §2.3). The model-level ones
 * (gemini.*) are left out: AfterModel fires once per streamed chunk (real-clients.md).
 */
const EVENTS: AgentEvents = Object.fromEntries(Object.entries(GEMINI_EVENT_NAMES).filter(([, native]) => !native.startsWith("gemini.")));

/** One name for all of Hookbox's handlers: `/hooks disable hookbox` turns Hookbox off in one go (research §2.1). */
const HANDLER_NAME = "hookbox";

/**
 * Gemini strips comments (strip-json-comments, default options), then runs JSON.parse: comments
 * pass, a trailing comma stops it with "Please fix the configuration file(s)" (0.61.0,
 * test/e2e/agents/gemini-install.test.ts).
 */
const DIALECT: JsonDialect = { comments: true, trailingCommas: false, whenInvalid: "Gemini CLI stops with a settings error and does not start" };

function desiredEntries(options: InstallOptions): DesiredEntry[] {
  return selectEvents("Gemini CLI", EVENTS, options).map((event) => {
    // Gemini reads `timeout` in milliseconds (research §2.1; real-clients.md), unlike Claude and Codex.
    const timeout = timeoutSeconds(EVENTS[event] as string) * 1000;
    const command = emitCommand(options.hookboxCommand ?? "hookbox", event, "gemini", options);
    return { event, handler: { type: "command", name: HANDLER_NAME, command, timeout }, description: `\`${command}\` (timeout ${timeout} ms)` };
  });
}

function notes(root: Record<string, unknown>): string[] {
  const config = isJsonObject(root.hooksConfig) ? root.hooksConfig : {};
  const lines: string[] = [];
  if (config.enabled === false) lines.push('! "hooksConfig.enabled" is false in this file: Gemini CLI runs no hook until it is true');
  if (Array.isArray(config.disabled) && config.disabled.includes(HANDLER_NAME))
    lines.push('! "hooksConfig.disabled" lists "hookbox": Gemini CLI skips these hooks until it is removed (/hooks enable hookbox)');
  return lines;
}

export const installer: InstallPlanner = {
  agent: "gemini",
  defaultEvents: Object.keys(EVENTS),
  /** Project hooks run only in folders Gemini trusts (real-clients.md). */
  configPath(scope, dirs) {
    if (scope === "local") return undefined;
    return scope === "user" ? joinPath(dirs.home, ".gemini", "settings.json") : joinPath(dirs.project, ".gemini", "settings.json");
  },
  ...hookPlans({
    label: "Gemini CLI settings",
    shape: "grouped",
    dialect: DIALECT,
    isHookbox: runsHookboxEmitHandler,
    entries: desiredEntries,
    notes,
  }),
};
