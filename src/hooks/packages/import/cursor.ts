import { CURSOR_EVENTS } from "../../../agents/cursor/payload.ts";
import { runsHookboxEmit } from "../../../agents/shared/install/command.ts";
import { importedOnError, shellRun, kebab, type ImportedHook, type ImportPlan, isObject, type Json } from "./types.ts";

/**
 * Cursor's hooks.json: {version: 1, hooks: {event: [{command, matcher?, timeout?}]}}. A command is
 * relative to the hooks.json's directory, so it runs from there (`cd <dir> && <command>`).
 */
export function importCursor(root: Json, fileDir: string): ImportPlan {
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
