import { compileGlob } from "../../core/text/glob.ts";
import { normalize } from "./posix.ts";

/**
 * Path grants: an absolute glob, or one starting with ${workspace} or ${home}. Parsed once into
 * a descriptor; expanded per invocation (the workspace is the event's cwd). Variable values are
 * escaped, so a workspace named `a[1]` is matched literally, not as a character class.
 */

export type PathVariable = "workspace" | "home";

export interface PathPattern {
  /** As written in the YAML, for messages. */
  readonly raw: string;
  readonly variable: PathVariable | undefined;
  /** Leading segments without glob syntax (after the variable): the part that realpath can resolve. */
  readonly literal: readonly string[];
  /** The rest, from the first segment with glob syntax on ("" when none). */
  readonly glob: string;
}

export interface PathVariables {
  readonly workspace: string | undefined;
  readonly home: string;
}

/**
 * What makes a segment a glob (src/core/text/glob.ts): an extglob opener counts, so that it is refused
 * rather than read literally; otherwise `(`, `!`, `@` and `+` are ordinary characters.
 */
const GLOB_SYNTAX = /[*?[\]{}\\]|[@!+]\(/;

export function parsePathPattern(raw: string): { ok: true; pattern: PathPattern } | { ok: false; error: string } {
  const variableMatch = /^\$\{([^}]*)\}/.exec(raw);
  const variable = variableMatch?.[1];
  if (variable !== undefined && variable !== "workspace" && variable !== "home") {
    return { ok: false, error: `unknown variable \${${variable}} (use \${workspace} or \${home})` };
  }
  const rest = variableMatch ? raw.slice(variableMatch[0].length) : raw;
  if (rest.includes("${")) return { ok: false, error: "a variable may only start a pattern (${workspace}/… or ${home}/…)" };
  if (variable !== undefined && rest !== "" && !rest.startsWith("/")) return { ok: false, error: `expected "/" after \${${variable}}` };
  const segments = rest.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) return { ok: false, error: '".." is not allowed in a path grant (it would reach outside its root)' };
  const firstGlob = segments.findIndex((segment) => GLOB_SYNTAX.test(segment));
  const literal = firstGlob < 0 ? segments : segments.slice(0, firstGlob);
  const glob = firstGlob < 0 ? "" : segments.slice(firstGlob).join("/");
  const pattern: PathPattern = { raw, variable: variable as PathVariable | undefined, literal, glob };
  // The glob as written is checked against the limits; the prefix it is composed with is literal.
  const checked = glob === "" ? undefined : compileGlob(glob);
  if (checked && !checked.ok) return { ok: false, error: `not a valid glob: ${checked.reason}` };
  return { ok: true, pattern };
}

export function escapeGlob(text: string): string {
  return text.replace(/[*?[\]{}()!+@\\|,]/g, "\\$&");
}

/** The literal prefix of a pattern as a path, or undefined when it needs a workspace there is none of. */
export function literalPrefix(pattern: PathPattern, vars: PathVariables): string | undefined {
  const base = pattern.variable === undefined ? "/" : vars[pattern.variable];
  if (base === undefined) return undefined;
  return normalize(`${base}/${pattern.literal.join("/")}`);
}

/** The glob to match against, with `prefix` (a literal path) standing for the literal part. */
export function compose(prefix: string, pattern: PathPattern): string {
  const head = escapeGlob(prefix);
  if (pattern.glob === "") return head;
  return head === "/" ? `/${pattern.glob}` : `${head}/${pattern.glob}`;
}

const MATCHER_CACHE_ENTRIES = 1024;
const matchers = new Map<string, (path: string) => boolean>();

/**
 * A compiled glob (cached: the same grants are matched for every event). Dotfiles match like any
 * file; matching never backtracks (src/core/text/glob.ts), whatever the grant and the path.
 */
export function globMatcher(glob: string): (path: string) => boolean {
  let matcher = matchers.get(glob);
  if (!matcher) {
    // Composed by compose() from a glob parsePathPattern accepted and an escaped literal prefix.
    const compiled = compileGlob(glob, { limitLength: false });
    if (!compiled.ok) throw new Error(`path grant glob ${JSON.stringify(glob)} was not checked: ${compiled.reason}`);
    matcher = compiled.glob.test;
    matchers.set(glob, matcher);
    if (matchers.size > MATCHER_CACHE_ENTRIES) matchers.delete(matchers.keys().next().value as string);
  }
  return matcher;
}
