import type { NativeEvent } from "../../core/events/types.ts";
import type { MatchConfig } from "../config/schema.ts";
import { normalizePath, relativeTo, resolvePath } from "../../core/text/posix-path.ts";
import { compileGlob, type Glob } from "../../core/text/glob.ts";
import { compileRegex, type SafeRegex } from "../../core/text/safe-regex.ts";
import { eventPaths } from "./tool-paths.ts";
import { compilePermissionRule, type PermissionRule } from "./permission-rule.ts";
import { TOOL_EVENTS } from "../../core/events/names.ts";

/** Pure: does this event concern this hook? Built once per hook at load. */
export interface Matcher {
  matches(event: NativeEvent): boolean;
}

/**
 * The field Claude Code's `matcher` filters, per event (agent-hook-protocols.md §1.2); events
 * without one ignore the tool matcher, as Claude does.
 */
const MATCHER_FIELD: Readonly<Record<string, string>> = {
  PreToolUse: "tool_name",
  PostToolUse: "tool_name",
  PostToolUseFailure: "tool_name",
  PermissionRequest: "tool_name",
  SessionStart: "source",
  SessionEnd: "reason",
  Notification: "notification_type",
  SubagentStart: "agent_type",
  SubagentStop: "agent_type",
  PreCompact: "trigger",
  PostCompact: "trigger",
};

const EXACT_LIST = /^[A-Za-z0-9_\- ,|]+$/;

export type MatcherBuild =
  { readonly ok: true; readonly matcher: Matcher } | { readonly ok: false; readonly errors: readonly { field: string; message: string }[] };

export function compileMatcher(config: MatchConfig): MatcherBuild {
  const errors: { field: string; message: string }[] = [];
  const tool = compileToolMatcher(config.tool, errors);
  const paths = config.paths && config.paths.length > 0 ? compilePathMatcher(config.paths, errors, "match.paths", eventPaths) : undefined;
  const rules = compileRules(config.if, errors);
  const changed = config.only_if_changed_paths
    ? compilePathMatcher(config.only_if_changed_paths, errors, "match.only_if_changed_paths", changedPaths)
    : undefined;
  const scope = compileScope(config.ability_scope);
  const minDuration = config.min_duration_ms;
  const fields: [readonly string[], SafeRegex][] = [];
  for (const [path, pattern] of Object.entries(config.fields ?? {})) {
    const compiled = compileRegex(pattern);
    if (compiled.ok) fields.push([path.split("."), compiled.regex]);
    else errors.push({ field: `match.fields.${path}`, message: compiled.message });
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    matcher: {
      matches: (event) => {
        const field = MATCHER_FIELD[event.event_type];
        if (tool && field) {
          const value = event[field];
          if (typeof value !== "string" || !tool(value)) return false;
        }
        if (paths && !paths(event)) return false;
        // Permission rules concern tool calls; other events ignore them, as they ignore the tool matcher.
        if (rules && TOOL_EVENTS.has(event.event_type) && !rules.some((rule) => rule.matches(event))) return false;
        // The seed's filters select only on what the event says; an event that says nothing runs the hook.
        if (minDuration !== undefined && typeof event.duration_ms === "number" && event.duration_ms < minDuration) return false;
        if (changed && changedPaths(event).length > 0 && !changed(event)) return false;
        if (scope && !scope(event)) return false;
        for (const [path, regex] of fields) {
          const value = valueAt(event, path);
          if (value === undefined || !regex.test(value)) return false;
        }
        return true;
      },
    },
  };
}

/** Claude Code's semantics: "*", "" or absent = all; names and "A|B" (or "A,B") = exact; anything else = unanchored regex. */
function compileToolMatcher(pattern: string | undefined, errors: { field: string; message: string }[]): ((name: string) => boolean) | undefined {
  if (pattern === undefined || pattern.trim() === "" || pattern.trim() === "*") return undefined;
  if (EXACT_LIST.test(pattern)) {
    const names = new Set(
      pattern
        .split(/[|,]/)
        .map((n) => n.trim())
        .filter(Boolean),
    );
    return (name) => names.has(name);
  }
  const compiled = compileRegex(pattern);
  if (!compiled.ok) {
    errors.push({ field: "match.tool", message: compiled.message });
    return undefined;
  }
  return (name) => compiled.regex.test(name);
}

/**
 * Globs over the paths the tool call touches (eventPaths: tool_input's keys, patches,
 * patch_files, link_targets). An absolute glob matches the resolved absolute path; a
 * relative glob ("**\/*.env", "src/**") matches the path relative to the workspace and, for paths
 * outside it, the absolute path without its leading slash — so "**\/*.pem" also catches /etc/x.pem.
 * Globs are hook-written and paths agent-written: they never backtrack (src/core/text/glob.ts, F9).
 */
function compilePathMatcher(
  globs: readonly string[],
  errors: { field: string; message: string }[],
  field: string,
  pathsOf: (event: NativeEvent) => string[],
): (event: NativeEvent) => boolean {
  const compiled: Glob[] = [];
  globs.forEach((source, index) => {
    const check = compileGlob(source, { negate: true });
    if (check.ok) compiled.push(check.glob);
    else errors.push({ field: `${field}.${index}`, message: `invalid glob ${JSON.stringify(source)}: ${check.reason}` });
  });
  const absolute = compiled.filter((glob) => glob.absolute).map((glob) => glob.test);
  const relative = compiled.filter((glob) => !glob.absolute).map((glob) => glob.test);
  return (event) => {
    const cwd = typeof event.cwd === "string" ? event.cwd : undefined;
    for (const raw of pathsOf(event)) {
      const full = cwd ? resolvePath(cwd, raw) : normalizePath(raw);
      if (absolute.some((test) => test(full))) return true;
      const inside = cwd ? relativeTo(cwd, full) : undefined;
      const candidates = inside !== undefined ? [inside] : [full.replace(/^\/+/, "")];
      if (relative.some((test) => candidates.some((candidate) => test(candidate)))) return true;
    }
    return false;
  };
}

/** A dotted field path into the event; numbers and booleans match as their text, objects never. */
function valueAt(event: NativeEvent, path: readonly string[]): string | undefined {
  let current: unknown = event;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  if (typeof current === "string") return current;
  if (typeof current === "number" || typeof current === "boolean") return String(current);
  return undefined;
}

function compileRules(rules: string | readonly string[] | undefined, errors: { field: string; message: string }[]): PermissionRule[] | undefined {
  if (rules === undefined) return undefined;
  const list = typeof rules === "string" ? [rules] : rules;
  const compiled: PermissionRule[] = [];
  list.forEach((source, index) => {
    const built = compilePermissionRule(source);
    if (built.ok) compiled.push(built.rule);
    else errors.push({ field: typeof rules === "string" ? "match.if" : `match.if.${index}`, message: built.message });
  });
  return compiled;
}

/** The seed's changed files (SessionStop's changed_files), or the paths a tool call touches. */
function changedPaths(event: NativeEvent): string[] {
  const listed = event.changed_files;
  if (Array.isArray(listed)) return listed.filter((path): path is string => typeof path === "string" && path !== "").slice(0, 4096);
  return eventPaths(event);
}

/** ability_scope: globs over the ability's id (the tool's name where the event has no ability_id); `*` is any text. */
function compileScope(scope: string | readonly string[] | undefined): ((event: NativeEvent) => boolean) | undefined {
  if (scope === undefined) return undefined;
  const list = typeof scope === "string" ? [scope] : scope;
  if (list.some((glob) => glob.trim() === "*")) return undefined;
  const regexes = list.map(
    (glob) =>
      new RegExp(
        `^${glob
          .trim()
          .split("*")
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
          .join(".*")}$`,
        "s",
      ),
  );
  return (event) => {
    const id = typeof event.ability_id === "string" ? event.ability_id : event.tool_name;
    return typeof id !== "string" || regexes.some((regex) => regex.test(id));
  };
}
