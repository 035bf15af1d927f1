// Paths as patterns: what a shell word may name once bash has expanded it (globs, variables
// whose value is only known at run time), and whether such a pattern may name a file that a
// glob (hookbox:paths syntax) protects. Part of hookbox:shell (./index.ts).

/**
 * One position of a pattern. `c`: that character (compared case-insensitively); `one`: any character but "/";
 * `star`: any run without "/"; `deep`: any run, "/" included; `set`: one character of `chars`
 * (or, `neg`, not of them). `dot: false` is bash's rule for * ? and [ ]: they do not match the
 * "." that starts a file name.
 */
export type ShTok = { k: "c"; c: string } | { k: "one" | "star" | "deep"; dot: boolean } | { k: "set"; chars: string; neg: boolean; dot: boolean };
export type ShPattern = ShTok[];

/** Alternatives kept apart before they are merged into one `deep`: a command line must not cost time. */
export const SH_MAX_ALTERNATIVES = 64;
const SH_MAX_SET_CHARS = 256;

/** A literal path as a pattern. */
export function shLiteralPattern(text: string): ShPattern {
  return [...text].map((c) => ({ k: "c", c }));
}

/** Anything at all: a value this command line does not give. */
export function shAnyPattern(): ShPattern {
  return [{ k: "deep", dot: true }];
}

/**
 * A glob's text as a pattern. `shell`: bash's pathname expansion (* ? [ ] do not match a leading
 * ".", ** is taken as crossing directories as with globstar, extglob groups @(…) match within a
 * name); otherwise hookbox:paths globs (case-insensitive, dotfiles match like any file). Braces
 * are the caller's (shBraceAlternatives).
 */
export function shGlobTokens(text: string, shell: boolean): ShPattern {
  const out: ShPattern = [];
  const dot = !shell;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "*" && text[i + 1] === "*") {
      while (text[i + 1] === "*") i++;
      out.push({ k: "deep", dot });
    } else if (shell && "@?*+!".includes(c) && text[i + 1] === "(") {
      // An extglob group: conservatively any run within a name, a leading "." included (@(.env)).
      let depth = 0;
      let j = i + 1;
      for (; j < text.length; j++) {
        if (text[j] === "(") depth++;
        else if (text[j] === ")" && --depth === 0) break;
      }
      out.push({ k: "star", dot: true });
      i = j;
    } else if (c === "*") out.push({ k: "star", dot });
    else if (c === "?") out.push({ k: "one", dot });
    else if (c === "[") {
      const close = text.indexOf("]", i + 2);
      if (close < 0) {
        out.push({ k: "c", c });
        continue;
      }
      let body = text.slice(i + 1, close);
      const neg = body.startsWith("!") || body.startsWith("^");
      if (neg) body = body.slice(1);
      let chars = "";
      for (let j = 0; j < body.length && chars.length < SH_MAX_SET_CHARS; j++) {
        const from = body.charCodeAt(j);
        if (body[j + 1] === "-" && j + 2 < body.length) {
          const to = body.charCodeAt(j + 2);
          for (let code = from; code <= to && chars.length < SH_MAX_SET_CHARS; code++) chars += String.fromCharCode(code);
          j += 2;
        } else chars += body[j];
      }
      out.push({ k: "set", chars: chars.toLowerCase(), neg, dot });
      i = close;
    } else out.push({ k: "c", c });
  }
  return out;
}

/** {a,b} alternatives of a glob's text (nested, bounded): ".env{,.local}" → ".env", ".env.local". */
export function shBraceAlternatives(text: string): string[] {
  const out: string[] = [];
  const walk = (s: string): void => {
    if (out.length >= SH_MAX_ALTERNATIVES) return;
    const open = s.indexOf("{");
    if (open < 0) return void out.push(s);
    let depth = 0;
    const commas: number[] = [];
    for (let j = open; j < s.length; j++) {
      if (s[j] === "{") depth++;
      else if (s[j] === "}" && --depth === 0) {
        if (commas.length === 0) return walk(`${s.slice(0, open)}\u0000${s.slice(open + 1, j)}\u0001${s.slice(j + 1)}`);
        let from = open + 1;
        for (const k of [...commas, j]) {
          walk(s.slice(0, open) + s.slice(from, k) + s.slice(j + 1));
          from = k + 1;
        }
        return;
      } else if (s[j] === "," && depth === 1) commas.push(j);
    }
    out.push(s);
  };
  walk(text);
  return out.map((s) => s.replace(/\u0000/g, "{").replace(/\u0001/g, "}"));
}

/**
 * A hookbox:paths glob as patterns: its brace alternatives, and for each "**\/" both "no
 * directory" and "some directories" (so "**\/.env" names ".env" too).
 */
export function shGlobPatterns(glob: string): ShPattern[] {
  const out: ShPattern[] = [];
  for (const alternative of shBraceAlternatives(glob)) {
    let variants = [alternative];
    for (let guard = 0; guard < 4 && variants.some((v) => v.includes("**/")); guard++) {
      variants = variants.flatMap((v) => {
        const at = v.indexOf("**/");
        return at < 0 ? [v] : [v.slice(0, at) + v.slice(at + 3), `${v.slice(0, at)}\u0002/${v.slice(at + 3)}`];
      });
    }
    for (const v of variants) out.push(shGlobTokens(v.replace(/\u0002/g, "**"), false));
  }
  return out.slice(0, SH_MAX_ALTERNATIVES);
}

function shAccepts(tok: ShTok, ch: string, nameStart: boolean): boolean {
  if (tok.k === "c") return tok.c.toLowerCase() === ch;
  if (ch === "." && nameStart && !tok.dot) return false;
  if (tok.k === "deep") return true;
  if (ch === "/") return false;
  if (tok.k === "set") return tok.neg ? !tok.chars.includes(ch) : tok.chars.includes(ch);
  return true;
}

const SH_GENERIC = "\u0001";

/**
 * May some path match both patterns? Both are walked together over one string, character by
 * character (a product automaton): linear in the product of their lengths, no backtracking.
 */
export function shOverlap(a: ShPattern, b: ShPattern): boolean {
  const seen = new Set<number>();
  const width = b.length + 1;
  const stack: [number, number, boolean][] = [[0, 0, true]];
  while (stack.length > 0) {
    const [i, j, start] = stack.pop() as [number, number, boolean];
    const key = (i * width + j) * 2 + (start ? 1 : 0);
    if (seen.has(key)) continue;
    seen.add(key);
    if (i === a.length && j === b.length) return true;
    const ta = a[i];
    const tb = b[j];
    if (ta && (ta.k === "star" || ta.k === "deep")) stack.push([i + 1, j, start]);
    if (tb && (tb.k === "star" || tb.k === "deep")) stack.push([i, j + 1, start]);
    if (!ta || !tb) continue;
    const candidates = ta.k === "c" ? [ta.c.toLowerCase()] : tb.k === "c" ? [tb.c.toLowerCase()] : [...new Set(["/", ".", SH_GENERIC, ...(ta.k === "set" ? ta.chars : ""), ...(tb.k === "set" ? tb.chars : "")])];
    for (const ch of candidates) {
      if (!shAccepts(ta, ch, start) || !shAccepts(tb, ch, start)) continue;
      stack.push([ta.k === "star" || ta.k === "deep" ? i : i + 1, tb.k === "star" || tb.k === "deep" ? j : j + 1, ch === "/"]);
    }
  }
  return false;
}

/** Does this concrete path match the pattern? */
export function shPatternMatches(pattern: ShPattern, path: string): boolean {
  return shOverlap(pattern, shLiteralPattern(path));
}

/** The pattern as text, for messages and tables: * ? [..] as in a glob, ** for anything. */
export function shPatternText(pattern: ShPattern): string {
  const text = (t: ShTok): string => {
    if (t.k === "c") return t.c;
    if (t.k === "set") return `[${t.neg ? "!" : ""}${t.chars.length > 12 ? `${t.chars.slice(0, 12)}…` : t.chars}]`;
    return t.k === "one" ? "?" : t.k === "star" ? "*" : "**";
  };
  return pattern.map(text).join("");
}

/** Is it a plain path (no wildcard left)? */
export function shPatternLiteral(pattern: ShPattern): string | undefined {
  return pattern.every((t) => t.k === "c") ? pattern.map((t) => (t as { c: string }).c).join("") : undefined;
}
