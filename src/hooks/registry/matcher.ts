import type { NativeEvent } from "../../core/events/types.ts";
import type { MatchConfig } from "../config/schema.ts";
import { normalizePath, relativeTo, resolvePath } from "../../core/text/posix-path.ts";
import { compileGlob, type Glob } from "../../core/text/glob.ts";
import { compileRegex, type SafeRegex } from "../../core/text/safe-regex.ts";
import { eventPaths } from "./tool-paths.ts";

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
  const paths = config.paths && config.paths.length > 0 ? compilePathMatcher(config.paths, errors) : undefined;
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
function compilePathMatcher(globs: readonly string[], errors: { field: string; message: string }[]): (event: NativeEvent) => boolean {
  const compiled: Glob[] = [];
  globs.forEach((source, index) => {
    const check = compileGlob(source, { negate: true });
    if (check.ok) compiled.push(check.glob);
    else errors.push({ field: `match.paths.${index}`, message: `invalid glob ${JSON.stringify(source)}: ${check.reason}` });
  });
  const absolute = compiled.filter((glob) => glob.absolute).map((glob) => glob.test);
  const relative = compiled.filter((glob) => !glob.absolute).map((glob) => glob.test);
  return (event) => {
    const cwd = typeof event.cwd === "string" ? event.cwd : undefined;
    for (const raw of eventPaths(event)) {
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
