import { dirname } from "../../core/text/posix-path.ts";
import {
  importedOnError,
  shellRun,
  kebab,
  type AgentImporter,
  type ImportedHook,
  type ImportPlan,
  isObject,
  type Json,
} from "../shared/import/types.ts";
import { runsHookboxEmit } from "../shared/install/command.ts";
import { CURSOR_EVENTS } from "./payload.ts";

/**
 * Cursor's hooks.json: {version: 1, hooks: {event: [{command, matcher?, timeout?}]}}. A command is
 * relative to the hooks.json's directory, so it runs from there (`cd <dir> && <command>`).
 */
function importCursor(root: Json, fileDir: string): ImportPlan {
  const hooks: ImportedHook[] = [];
  const warnings: string[] = [];
  const section = isObject(root.hooks) ? root.hooks : {};
  const remaining: Json = {};
  for (const [agentEvent, entries] of Object.entries(section)) {
    if (!Array.isArray(entries)) {
      remaining[agentEvent] = entries;
      continue;
    }
    const event = CURSOR_EVENTS.toNative.get(agentEvent);
    const kept: unknown[] = [];
    entries.forEach((entry, index) => {
      const where = `hooks.${agentEvent}[${index}]`;
      if (
        !isObject(entry) ||
        typeof entry.command !== "string" ||
        runsHookboxEmit(entry.command) ||
        (entry.type !== undefined && entry.type !== "command")
      )
        return kept.push(entry);
      if (event === undefined || event.startsWith("cursor.")) {
        warnings.push(`${where}: Hookbox has no event for Cursor's ${agentEvent}: left as it is`);
        return kept.push(entry);
      }
      const line = `cd '${fileDir.replace(/'/g, `'\\''`)}' && ${entry.command}`;
      const seconds = typeof entry.timeout === "number" && entry.timeout > 0 ? entry.timeout : 60;
      const matcher = typeof entry.matcher === "string" && entry.matcher !== "" && entry.matcher !== "*" ? entry.matcher : undefined;
      hooks.push({
        id: `cursor-${kebab(agentEvent)}-${hooks.filter((h) => h.agentEvent === agentEvent).length + 1}`,
        dialect: "cursor",
        agentEvent,
        event,
        run: shellRun(line),
        command: entry.command,
        timeoutMs: seconds * 1000,
        // Several Cursor events decode to one native event: the hook keeps to its own.
        match: { fields: { agent_event_name: `^${agentEvent}$`, ...(matcher ? { agent_tool_name: matcher } : {}) } },
        where,
        summary: `Cursor command hook: ${entry.command}`.slice(0, 500),
        enabled: true,
        onError: importedOnError(event, entry.failClosed === true),
        effects: [],
        injectContext: agentEvent === "sessionStart",
      });
    });
    if (kept.length > 0) remaining[agentEvent] = kept;
  }
  return { dialect: "cursor", hooks, warnings, remaining: { ...root, hooks: remaining } };
}

/** A hooks.json is Cursor's under .cursor/, or with a numeric `version` and handlers listed flat under each event. */
function isCursorFile(path: string, root: Json): boolean {
  const hooks = root.hooks !== null && typeof root.hooks === "object" ? (root.hooks as Record<string, unknown>) : {};
  const flat = Object.values(hooks).some(
    (entries) => Array.isArray(entries) && entries.some((entry) => entry && typeof entry === "object" && "command" in entry && !("hooks" in entry)),
  );
  return path.includes("/.cursor/") || (typeof root.version === "number" && flat);
}

export const importer: AgentImporter = {
  /** Cursor pipes its own payload (tool input at the top) and reads `permission` (research §3.3). */
  reading: {
    stdin: "flat",
    answer: "permission",
    decisionBehavior: false,
    toolInputRewrite: false,
    jsonOnAnyExit: false,
    plainText: "ignored",
    exitAboveOneDenies: false,
  },
  projectVariables: [],
  pluginRootVariables: [],
  guess: { order: 1, matches: isCursorFile },
  read: (root, source) => importCursor(root, dirname(source.path)),
};
