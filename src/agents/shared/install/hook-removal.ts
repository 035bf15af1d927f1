import { HookboxError } from "../../../core/errors.ts";
import type { IsHookboxHandler, MergeResult } from "./hook-entries.ts";
import { isJsonObject, type JsonObject } from "./json-value.ts";

/** How an agent lists its handlers: Claude, Gemini and Codex in matcher groups, Cursor flat. */
export type HooksShape = "grouped" | "flat";

function described(handler: JsonObject): string {
  const command = handler.command ?? handler.bash;
  return typeof command === "string" ? `removed \`${command}\`` : `removed the POST to ${String(handler.url)}`;
}

/** Hookbox's handlers taken out of one event's list (in place); what was removed, in order. */
function removeFrom(list: unknown[], shape: HooksShape, isHookbox: IsHookboxHandler): JsonObject[] {
  const removed: JsonObject[] = [];
  const take = (handlers: unknown[]): void => {
    for (let h = handlers.length - 1; h >= 0; h--) {
      const handler = handlers[h];
      if (isJsonObject(handler) && isHookbox(handler)) removed.unshift(...handlers.splice(h, 1).filter(isJsonObject));
    }
  };
  if (shape === "flat") {
    take(list);
    return removed;
  }
  for (let g = list.length - 1; g >= 0; g--) {
    const group = list[g];
    if (!isJsonObject(group) || !Array.isArray(group.hooks)) continue;
    const before = removed.length;
    take(group.hooks);
    // A group left with no handler held only Hookbox's: it goes too (a user's empty group stays).
    if (removed.length > before && group.hooks.length === 0) list.splice(g, 1);
  }
  return removed;
}

/**
 * Every Hookbox handler out of `root.hooks` (in place), and then each group, event list and the
 * `hooks` object itself that held nothing else. What is not Hookbox's is left as it was, even
 * where it is malformed: uninstalling must not depend on the rest of the file being right.
 */
export function removeHookboxHooks(root: JsonObject, shape: HooksShape, isHookbox: IsHookboxHandler, file: string): MergeResult {
  if (root.hooks === undefined) return { summary: [], mutated: false };
  if (!isJsonObject(root.hooks))
    throw new HookboxError("config_invalid", `${file}: "hooks" must be an object of event names to hook lists. Nothing was changed.`);
  const hooks = root.hooks;
  const summary: string[] = [];
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    const removed = removeFrom(list, shape, isHookbox);
    summary.push(...removed.map((handler) => `- ${event}: ${described(handler)}`));
    if (removed.length > 0 && list.length === 0) delete hooks[event];
  }
  if (summary.length > 0 && Object.keys(hooks).length === 0) {
    delete root.hooks;
    summary.push('- "hooks": removed (it held only Hookbox\'s entries)');
  }
  return { summary, mutated: summary.length > 0 };
}
