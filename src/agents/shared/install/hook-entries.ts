import { HookboxError } from "../../../core/errors.ts";
import { isJsonObject, sameJson, type JsonObject } from "./json-value.ts";

/** One Hookbox handler wanted under one of the agent's events. */
export interface DesiredEntry {
  /** The agent's event name: the key under "hooks". */
  readonly event: string;
  readonly handler: Readonly<Record<string, unknown>>;
  /** What --dry-run says it does: "`hookbox emit Stop --agent claude` (timeout 30 s)". */
  readonly description: string;
}

/** Whether a handler in the file is Hookbox's own (so Hookbox may update or de-duplicate it, and nothing else). */
export type IsHookboxHandler = (handler: Readonly<Record<string, unknown>>) => boolean;

export interface MergeResult {
  readonly summary: readonly string[];
  readonly mutated: boolean;
}

function configError(file: string, path: string, message: string): HookboxError {
  return new HookboxError("config_invalid", `${file}: ${path} ${message}. Nothing was changed.`);
}

/** `root.hooks`, created when absent. */
export function hooksSection(root: JsonObject, file: string): JsonObject {
  if (root.hooks === undefined) root.hooks = {};
  if (!isJsonObject(root.hooks)) throw configError(file, '"hooks"', "must be an object of event names to hook lists");
  return root.hooks;
}

function eventList(hooks: JsonObject, event: string, file: string): unknown[] {
  if (hooks[event] === undefined) hooks[event] = [];
  const list = hooks[event];
  if (!Array.isArray(list)) throw configError(file, `hooks.${event}`, "must be a list");
  return list;
}

interface Found {
  readonly handlers: unknown[];
  readonly index: number;
}

/**
 * Puts each desired handler in place: added when Hookbox has none for the event, updated in
 * place (keeping the user's matcher and position) when it differs, left alone when equal.
 * Hookbox's own duplicates are removed — two would evaluate every event twice. Every handler
 * that is not Hookbox's is left exactly as it was.
 */
function mergeEntries(
  hooks: JsonObject,
  entries: readonly DesiredEntry[],
  file: string,
  locate: (list: unknown[], event: string) => Found[],
  addTo: (list: unknown[], handler: JsonObject) => void,
  dropEmpty: (list: unknown[]) => void,
): MergeResult {
  const summary: string[] = [];
  let mutated = false;
  for (const entry of entries) {
    const list = eventList(hooks, entry.event, file);
    const [first, ...duplicates] = locate(list, entry.event);
    if (first === undefined) {
      addTo(list, { ...entry.handler });
      summary.push(`+ ${entry.event}: ${entry.description}`);
      mutated = true;
      continue;
    }
    if (sameJson(first.handlers[first.index], entry.handler)) {
      summary.push(`= ${entry.event}: already installed`);
    } else {
      first.handlers[first.index] = { ...entry.handler };
      summary.push(`~ ${entry.event}: updated to ${entry.description}`);
      mutated = true;
    }
    for (const duplicate of duplicates.reverse()) duplicate.handlers.splice(duplicate.index, 1);
    if (duplicates.length > 0) {
      dropEmpty(list);
      summary.push(`- ${entry.event}: removed ${duplicates.length} duplicate Hookbox entr${duplicates.length === 1 ? "y" : "ies"}`);
      mutated = true;
    }
  }
  return { summary, mutated };
}

/** Claude Code, Gemini CLI and Codex: hooks.<Event> = [{ matcher?, hooks: [handler …] } …]. */
export function mergeGroupedHooks(hooks: JsonObject, entries: readonly DesiredEntry[], isHookbox: IsHookboxHandler, file: string): MergeResult {
  const locate = (list: unknown[], event: string): Found[] =>
    list.flatMap((group, g) => {
      if (!isJsonObject(group)) throw configError(file, `hooks.${event}[${g}]`, 'must be an object like {"matcher": "…", "hooks": […]}');
      if (group.hooks === undefined) return [];
      const handlers = group.hooks;
      if (!Array.isArray(handlers)) throw configError(file, `hooks.${event}[${g}].hooks`, "must be a list of handlers");
      return handlers.flatMap((handler, h) => {
        if (!isJsonObject(handler)) throw configError(file, `hooks.${event}[${g}].hooks[${h}]`, "must be an object");
        return isHookbox(handler) ? [{ handlers, index: h }] : [];
      });
    });
  const emptied = new Set<unknown>();
  const result = mergeEntries(
    hooks,
    entries,
    file,
    (list, event) => {
      const found = locate(list, event);
      for (const item of found.slice(1)) emptied.add(item.handlers);
      return found;
    },
    (list, handler) => list.push({ hooks: [handler] }),
    // A group left with no handler only ever held Hookbox duplicates: it goes too.
    (list) => {
      for (let g = list.length - 1; g >= 0; g--) {
        const group = list[g] as JsonObject;
        if (Array.isArray(group.hooks) && group.hooks.length === 0 && emptied.has(group.hooks)) list.splice(g, 1);
      }
    },
  );
  return result;
}

/** Cursor: hooks.<event> = [handler …]. */
export function mergeFlatHooks(hooks: JsonObject, entries: readonly DesiredEntry[], isHookbox: IsHookboxHandler, file: string): MergeResult {
  const locate = (list: unknown[], event: string): Found[] =>
    list.flatMap((handler, h) => {
      if (!isJsonObject(handler)) throw configError(file, `hooks.${event}[${h}]`, 'must be an object like {"command": "…"}');
      return isHookbox(handler) ? [{ handlers: list, index: h }] : [];
    });
  return mergeEntries(
    hooks,
    entries,
    file,
    locate,
    (list, handler) => list.push(handler),
    () => undefined,
  );
}
