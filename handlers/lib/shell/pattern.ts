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

/**
 * {a,b} alternatives of a glob's text (nested): ".env{,.local}" → ".env", ".env.local". Bounded:
 * past 64 it stops at 65, so a caller can tell there were more.
 */
export function shBraceAlternatives(text: string): string[] {
  const out: string[] = [];
  const walk = (s: string): void => {
    if (out.length > SH_MAX_ALTERNATIVES) return;
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

/** A hookbox:paths glob as patterns, one per brace alternative ("**" a whole segment: any number of directories). */
export function shGlobPatterns(glob: string): ShPattern[] {
  return shBraceAlternatives(glob).map((alternative) => shGlobTokens(alternative, false));
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

function shRepeats(tok: ShTok): boolean {
  return tok.k === "star" || tok.k === "deep";
}

const shEndsCache = new WeakMap<ShPattern, { head: string; tail: string; wild: boolean }>();

/** The literal characters a pattern starts and ends with (lower-case): a cheap first test of two patterns. */
function shEnds(p: ShPattern): { head: string; tail: string; wild: boolean } {
  const cached = shEndsCache.get(p);
  if (cached) return cached;
  const ends = shEndsOf(p);
  shEndsCache.set(p, ends);
  return ends;
}

function shEndsOf(p: ShPattern): { head: string; tail: string; wild: boolean } {
  // A "**" component may be no component at all ("**/.env" is ".env"): the "/" next to one is not certain.
  let head = "";
  let k = 0;
  for (; k < p.length; k++) {
    const t = p[k] as ShTok;
    if (t.k !== "c") break;
    head += t.c.toLowerCase();
  }
  if (p[k]?.k === "deep" && head.endsWith("/")) head = head.slice(0, -1);
  let tail = "";
  for (let i = p.length - 1; i >= 0; i--) {
    const t = p[i] as ShTok;
    if (t.k !== "c" || t.c === "/") break;
    tail = t.c.toLowerCase() + tail;
  }
  return { head, tail, wild: k !== p.length };
}

/** One path component of a pattern: its tokens, its text when literal, or a whole-segment `**`. */
interface ShSegment {
  toks: ShPattern;
  literal: string | undefined;
  deep: { dot: boolean } | undefined;
}

const shSegmentCache = new WeakMap<ShPattern, ShSegment[] | null>();

/** A pattern cut at its literal "/"; null when a `deep` shares a component with other tokens (report-$F.txt). */
function shSegments(p: ShPattern): ShSegment[] | null {
  const cached = shSegmentCache.get(p);
  if (cached !== undefined) return cached;
  const out: ShSegment[] = [];
  let toks: ShTok[] = [];
  const end = (): boolean => {
    const deep = toks.length === 1 && toks[0]?.k === "deep" ? { dot: (toks[0] as { dot: boolean }).dot } : undefined;
    if (!deep && toks.some((t) => t.k === "deep")) return false;
    out.push({
      toks,
      literal: toks.every((t) => t.k === "c")
        ? toks
            .map((t) => (t as { c: string }).c)
            .join("")
            .toLowerCase()
        : undefined,
      deep,
    });
    toks = [];
    return true;
  };
  let ok = true;
  for (const t of p) {
    if (t.k === "c" && t.c === "/") ok = ok && end();
    else toks.push(t);
  }
  ok = ok && end();
  // A trailing "/**" is what is below a directory: at least one more component ("**/.ssh/**" is not ".ssh" itself).
  if (ok && out.length > 1 && out[out.length - 1]?.deep)
    out.splice(out.length - 1, 0, { toks: [{ k: "star", dot: true }], literal: undefined, deep: undefined });
  const result = ok ? out : null;
  shSegmentCache.set(p, result);
  return result;
}

/** Can a whole-segment ** stand for this component? Not for one that must start with "." when ** skips hidden ones. */
function shDeepTakes(deep: { dot: boolean }, seg: ShSegment): boolean {
  if (deep.dot || seg.deep) return true;
  const first = seg.toks[0];
  return !(first?.k === "c" && first.c === ".");
}

/**
 * May some path match both patterns? Component by component (a ** component stands for any
 * number of them), each pair of components walked character by character; most pairs differ
 * in a literal start, end or component and are answered at once. No backtracking: the work is
 * bounded by the product of the patterns' lengths.
 */
export function shOverlap(a: ShPattern, b: ShPattern): boolean {
  const ea = shEnds(a);
  const eb = shEnds(b);
  if (!ea.wild && !eb.wild) return ea.head === eb.head;
  const n = Math.min(ea.head.length, eb.head.length);
  if (ea.head.slice(0, n) !== eb.head.slice(0, n)) return false;
  const m = Math.min(ea.tail.length, eb.tail.length);
  if (ea.tail.slice(ea.tail.length - m) !== eb.tail.slice(eb.tail.length - m)) return false;
  const sa = shSegments(a);
  const sb = shSegments(b);
  if (!sa || !sb) return shZeroDirs(a).some((x) => shZeroDirs(b).some((y) => shOverlapChars(x, y)));
  const width = sb.length + 1;
  const seen = new Uint8Array((sa.length + 1) * width);
  const stack: number[] = [0];
  seen[0] = 1;
  const push = (i: number, j: number): void => {
    const key = i * width + j;
    if (seen[key] === 0) {
      seen[key] = 1;
      stack.push(key);
    }
  };
  while (stack.length > 0) {
    const key = stack.pop() as number;
    const i = Math.floor(key / width);
    const j = key - i * width;
    if (i === sa.length && j === sb.length) return true;
    const x = sa[i];
    const y = sb[j];
    if (x?.deep) {
      push(i + 1, j);
      if (y && shDeepTakes(x.deep, y)) push(i, j + 1);
    }
    if (y?.deep) {
      push(i, j + 1);
      if (x && shDeepTakes(y.deep, x)) push(i + 1, j);
    }
    if (
      x &&
      y &&
      !x.deep &&
      !y.deep &&
      (x.literal !== undefined && y.literal !== undefined ? x.literal === y.literal : shOverlapChars(x.toks, y.toks))
    )
      push(i + 1, j + 1);
  }
  return false;
}

/** For the character-level walk: each "**\/" also as nothing (zero directories), as many as 8 variants. */
function shZeroDirs(p: ShPattern): ShPattern[] {
  let variants: ShPattern[] = [p];
  for (let k = 0; k < p.length - 1 && variants.length < 8; k++) {
    const t = p[k] as ShTok;
    const next = p[k + 1] as ShTok;
    if (t.k !== "deep" || next.k !== "c" || next.c !== "/" || (k > 0 && !((p[k - 1] as ShTok).k === "c" && (p[k - 1] as { c: string }).c === "/")))
      continue;
    variants = variants.flatMap((v) => [v, [...v.slice(0, k - (p.length - v.length)), ...v.slice(k + 2 - (p.length - v.length))]]);
  }
  return variants;
}

/** The character-level walk of two patterns (the product automaton). */
function shOverlapChars(a: ShPattern, b: ShPattern): boolean {
  const width = b.length + 1;
  const seen = new Uint8Array((a.length + 1) * width * 2);
  // States as numbers: ((i * width) + j) * 2 + (at the start of a name ? 1 : 0).
  const stack: number[] = [1];
  const push = (i: number, j: number, start: boolean): void => {
    const key = (i * width + j) * 2 + (start ? 1 : 0);
    if (seen[key] === 0) {
      seen[key] = 1;
      stack.push(key);
    }
  };
  seen[1] = 1;
  while (stack.length > 0) {
    const key = stack.pop() as number;
    const start = (key & 1) === 1;
    const i = Math.floor(key / 2 / width);
    const j = (key >> 1) - i * width;
    if (i === a.length && j === b.length) return true;
    const ta = a[i];
    const tb = b[j];
    if (ta && shRepeats(ta)) push(i + 1, j, start);
    if (tb && shRepeats(tb)) push(i, j + 1, start);
    if (!ta || !tb) continue;
    const candidates =
      ta.k === "c"
        ? ta.c.toLowerCase()
        : tb.k === "c"
          ? tb.c.toLowerCase()
          : `/.${SH_GENERIC}${ta.k === "set" ? ta.chars : ""}${tb.k === "set" ? tb.chars : ""}`;
    for (let c = 0; c < candidates.length; c++) {
      const ch = candidates[c] as string;
      if (!shAccepts(ta, ch, start) || !shAccepts(tb, ch, start)) continue;
      push(shRepeats(ta) ? i : i + 1, shRepeats(tb) ? j : j + 1, ch === "/");
    }
  }
  return false;
}

const shGlobCache = new Map<string, ShPattern[]>();

/**
 * May the pattern name a path this hookbox:paths glob matches? The glob's literal start and end
 * are compared first, so most globs are answered without being compiled; compiled ones are kept.
 */
export function shMayMatchGlob(pattern: ShPattern, glob: string): boolean {
  const ends = shEnds(pattern);
  const lower = glob.toLowerCase();
  if (!/[{]/.test(lower)) {
    // As shEnds: the tail within the last component, the head without a "/" before a "**".
    const head = (/^[^*?[{]*/.exec(lower)?.[0] ?? "").replace(/\/$/, "");
    const tail = /[^*?\]}/]*$/.exec(lower)?.[0] ?? "";
    const n = Math.min(head.length, ends.head.length);
    if (head.slice(0, n) !== ends.head.slice(0, n)) return false;
    const m = Math.min(tail.length, ends.tail.length);
    if (tail.slice(tail.length - m) !== ends.tail.slice(ends.tail.length - m)) return false;
  }
  let compiled = shGlobCache.get(lower);
  if (!compiled) {
    compiled = shGlobPatterns(lower);
    if (shGlobCache.size > 512) shGlobCache.clear();
    shGlobCache.set(lower, compiled);
  }
  return compiled.some((p) => shOverlap(pattern, p));
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
