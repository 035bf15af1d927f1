import { expandBraces } from "./glob-braces.ts";
import { ANY, classEnd, compileName, GlobError, parseClass, STAR, type Token } from "./glob-name.ts";

/**
 * Globs from hook files (`match.paths`, read grants) are matched on the daemon's event loop
 * against paths an agent or a guest chose, so a hostile glob must not be able to stall it (F9):
 * nothing here backtracks. A path is walked name by name with the set of glob positions reachable
 * so far (each position tried once per name); a name is matched by a bit-parallel NFA
 * (glob-name.ts). Time: O(path × glob), with the glob bounded at load by the limits below.
 *
 * Syntax (picomatch's with `dot: true`, for everything Hookbox documents):
 * - `*` any run of characters within a name; `?` one character; `[a-z]`, `[!a-z]` (or `[^a-z]`)
 *   one character in / not in the set. None of them matches `/`.
 * - `**` as a whole name: any number of names, none included (`a/**` matches `a` itself).
 * - `{a,b}`, `{1..3}`, `{a..c}`: alternatives (nested; they may contain `/`).
 * - `\x` is the character x. A leading `./` is dropped; trailing slashes are ignored (in the glob
 *   and in the path). With `negate`, a leading `!` inverts the glob.
 * Dotfiles match like any file. The names `.` and `..`, and the empty name before the first `/`
 * of an absolute path, are matched only by the same literal name.
 * Refused with the reason rather than guessed at: extglobs (`@(…)`, `!(…)`, `+(…)`, `*(…)`,
 * `?(…)`), POSIX classes, `**` inside a name, `***`, a class containing `/`, an unclosed `[` or
 * `{`, and globs over the limits. A `}` without its `{` is a character, as in picomatch.
 */

/** Longest glob a hook file may write (characters). */
export const MAX_GLOB_CHARS = 1024;
/** Most globs the braces of one glob may expand to. */
export const MAX_GLOB_EXPANSIONS = 64;
/** Most characters those expansions may hold together. */
export const MAX_GLOB_EXPANDED_CHARS = 4096;
/** Most wildcards (`*`, `?`, `[…]`) in one name. */
export const MAX_WILDCARDS_PER_NAME = 16;
/** Most fixed-width tokens in a name with wildcards: no file name is longer (NAME_MAX). */
export const MAX_NAME_CHARS = 255;
/** Most `**` names in one glob (each keeps a position of the walk alive). */
export const MAX_GLOBSTARS = 8;

export interface Glob {
  readonly source: string;
  /** Whether the glob (after a negating `!`) starts with `/`. */
  readonly absolute: boolean;
  test(path: string): boolean;
}

export type GlobCheck = { readonly ok: true; readonly glob: Glob } | { readonly ok: false; readonly reason: string };

export interface GlobOptions {
  /** A leading `!` inverts the glob (picomatch's default); otherwise `!` is an ordinary character. */
  readonly negate?: boolean;
  /**
   * false for a glob the host composed from a checked one and an escaped literal prefix (a read
   * grant with its workspace): the prefix may be long, and literal names cost little to match.
   */
  readonly limitLength?: boolean;
}

export function compileGlob(source: string, options: GlobOptions = {}): GlobCheck {
  try {
    const limitLength = options.limitLength ?? true;
    if (limitLength && source.length > MAX_GLOB_CHARS) throw new GlobError(`longer than ${MAX_GLOB_CHARS} characters`);
    let text = source;
    let negated = false;
    while (options.negate && text.startsWith("!") && !text.startsWith("!(")) {
      negated = !negated;
      text = text.slice(1);
    }
    while (text.startsWith("./")) text = text.slice(2);
    const expanded = expandBraces(text, { expansions: MAX_GLOB_EXPANSIONS, chars: limitLength ? MAX_GLOB_EXPANDED_CHARS : Infinity });
    const alternatives = expanded.map(parseNames);
    const test = (path: string): boolean => {
      const names = splitPath(path);
      const matched = names !== undefined && alternatives.some((glob) => walk(glob, names));
      return matched !== negated;
    };
    return { ok: true, glob: { source, absolute: text.startsWith("/"), test } };
  } catch (error) {
    if (error instanceof GlobError) return { ok: false, reason: error.message };
    throw error;
  }
}

const GLOBSTAR = Symbol("**");
/** A name of the glob: `**`, a literal name, or a matcher for names that are not special. */
type Name = typeof GLOBSTAR | string | ((name: string) => boolean);

const EXTGLOB_PREFIX = new Set(["@", "!", "+", "*", "?"]);

/** One brace-free glob into names, refusing what this matcher does not run. */
function parseNames(glob: string): Name[] {
  const names: Name[] = [];
  let tokens: Token[] = [];
  let literal = "";
  let wildcards = 0;
  let doubleStar = false;
  let previous = "";
  const flush = (): void => {
    if (doubleStar && tokens.length !== 1) throw new GlobError('"**" spans directories only as a whole name ("a/**/b"); use "*" within a name');
    if (wildcards > MAX_WILDCARDS_PER_NAME) throw new GlobError(`more than ${MAX_WILDCARDS_PER_NAME} wildcards (*, ?, […]) in one name`);
    const fixed = tokens.filter((token) => token !== STAR).length;
    if (wildcards > 0 && fixed > MAX_NAME_CHARS) throw new GlobError(`a name of more than ${MAX_NAME_CHARS} characters matches no file`);
    if (doubleStar) names.push(GLOBSTAR);
    else names.push(wildcards === 0 ? literal : compileName(tokens));
    tokens = [];
    literal = "";
    wildcards = 0;
    doubleStar = false;
  };
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === "\\") {
      const code = glob.codePointAt(i + 1);
      if (code === undefined) throw new GlobError('ends with a lone "\\"');
      tokens.push(code);
      literal += String.fromCodePoint(code);
      i += code > 0xffff ? 2 : 1;
      previous = "";
      continue;
    }
    if (char === "(" && EXTGLOB_PREFIX.has(previous)) {
      throw new GlobError(`extglobs such as "${previous}(…)" are not supported: use braces ({a,b}), or write "\\(" for a parenthesis`);
    }
    if (char === "/") {
      flush();
    } else if (char === "*" && previous === "*") {
      if (doubleStar) throw new GlobError('"***" is not a glob: use "**" (any depth) or "*" (within a name)');
      doubleStar = true;
    } else if (char === "*" || char === "?") {
      tokens.push(char === "*" ? STAR : ANY);
      wildcards++;
    } else if (char === "[") {
      const end = classEnd(glob, i);
      if (end < 0) throw new GlobError('unclosed "[" (write "\\[" for a bracket)');
      tokens.push(parseClass(glob.slice(i + 1, end)));
      wildcards++;
      i = end;
    } else {
      const code = glob.codePointAt(i) as number;
      tokens.push(code);
      literal += String.fromCodePoint(code);
      if (code > 0xffff) i++;
    }
    previous = char;
  }
  flush();
  if (names.length > 1 && names[names.length - 1] === "") names.pop();
  if (names.filter((name) => name === GLOBSTAR).length > MAX_GLOBSTARS) throw new GlobError(`more than ${MAX_GLOBSTARS} "**" in one glob`);
  return names;
}

function splitPath(path: string): string[] | undefined {
  if (path === "") return undefined;
  const names = path.split("/");
  if (names.length > 1 && names[names.length - 1] === "") names.pop();
  return names;
}

/** "", "." and ".." are matched only by the same literal name. */
function isSpecialName(name: string): boolean {
  return name === "" || name === "." || name === "..";
}

/** The walk: the glob positions reachable after each name of the path; each tried once per name. */
function walk(glob: readonly Name[], names: readonly string[]): boolean {
  const end = glob.length;
  const seenAt = new Int32Array(end + 1).fill(-1);
  const reach = (into: number[], position: number, step: number): void => {
    for (let p = position; p <= end && seenAt[p] !== step; p++) {
      seenAt[p] = step;
      into.push(p);
      if (glob[p] !== GLOBSTAR) return;
    }
  };
  let active: number[] = [];
  reach(active, 0, 0);
  for (let j = 0; j < names.length; j++) {
    const name = names[j] as string;
    const special = isSpecialName(name);
    const next: number[] = [];
    for (const position of active) {
      const part = glob[position];
      if (part === undefined) continue;
      if (part === GLOBSTAR) {
        if (!special) reach(next, position, j + 1);
      } else if (typeof part === "string" ? part === name : !special && part(name)) {
        reach(next, position + 1, j + 1);
      }
    }
    if (next.length === 0) return false;
    active = next;
  }
  return active.includes(end);
}
