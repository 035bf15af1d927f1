import { classEnd, GlobError } from "./glob-name.ts";

/**
 * Brace expansion, bounded: `{a,b}` (nested, alternatives may contain `/`), `{1..3}` and `{a..c}`.
 * `{a}` and `{}` are literal, as in picomatch and bash. Escapes are kept for the parser.
 */
export interface BraceLimits {
  /** Most globs one glob may expand to. */
  readonly expansions: number;
  /** Most characters all of them may hold together. */
  readonly chars: number;
}

export function expandBraces(text: string, limits: BraceLimits): string[] {
  const expanded = expand(text, limits);
  const chars = expanded.reduce((sum, glob) => sum + glob.length, 0);
  if (chars > limits.chars) throw new GlobError(`its braces expand to more than ${limits.chars} characters`);
  return expanded;
}

function expand(text: string, limits: BraceLimits): string[] {
  const open = scanTo(text, 0, "{");
  if (open < 0) return [text];
  const close = matchingBrace(text, open);
  const inner = text.slice(open + 1, close);
  const parts = splitAlternatives(inner);
  let alternatives: string[];
  if (parts.length > 1) {
    alternatives = [];
    for (const part of parts) {
      alternatives.push(...expand(part, limits));
      if (alternatives.length > limits.expansions) throw tooMany(limits);
    }
  } else {
    alternatives = braceRange(inner, limits) ?? expand(inner, limits).map((alternative) => `\\{${alternative}\\}`);
  }
  const rest = expand(text.slice(close + 1), limits);
  if (alternatives.length * rest.length > limits.expansions) throw tooMany(limits);
  const head = text.slice(0, open);
  return alternatives.flatMap((alternative) => rest.map((tail) => head + alternative + tail));
}

function tooMany(limits: BraceLimits): GlobError {
  return new GlobError(`its braces expand to more than ${limits.expansions} globs`);
}

/** The first unescaped `wanted` outside classes and nested braces, or -1 (a stray `}` is a character). */
function scanTo(text: string, from: number, wanted: "{" | ","): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const char = text[i];
    if (char === "\\") i++;
    else if (char === "[") i = Math.max(i, classEnd(text, i));
    else if (char === wanted && depth === 0) return i;
    else if (char === "{") depth++;
    else if (char === "}" && depth > 0) depth--;
  }
  return -1;
}

function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const char = text[i];
    if (char === "\\") i++;
    else if (char === "[") i = Math.max(i, classEnd(text, i));
    else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return i;
  }
  throw new GlobError('unclosed "{" (write "\\{" for a brace)');
}

function splitAlternatives(inner: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let comma = scanTo(inner, 0, ","); comma >= 0; comma = scanTo(inner, start, ",")) {
    parts.push(inner.slice(start, comma));
    start = comma + 1;
  }
  parts.push(inner.slice(start));
  return parts;
}

/** `{1..3}` (zero-padded when an end is, like bash) or `{a..c}`; undefined when `inner` is neither. */
function braceRange(inner: string, limits: BraceLimits): string[] | undefined {
  const numbers = /^(-?\d+)\.\.(-?\d+)$/.exec(inner);
  const letters = /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(inner);
  const ends = numbers ?? letters;
  if (!ends) return undefined;
  const [, a = "", b = ""] = ends;
  const from = numbers ? Number(a) : a.charCodeAt(0);
  const to = numbers ? Number(b) : b.charCodeAt(0);
  if (Math.abs(to - from) + 1 > limits.expansions) throw tooMany(limits);
  const width = numbers && (/^-?0\d/.test(a) || /^-?0\d/.test(b)) ? Math.max(a.length, b.length) : 0;
  const out: string[] = [];
  for (let n = from; ; n += to >= from ? 1 : -1) {
    // Letters between Z and a include [ \ ] ^ _ `: escaped, they are just characters.
    out.push((numbers ? String(n).padStart(width, "0") : String.fromCharCode(n)).replace(/[[\]\\^]/g, "\\$&"));
    if (n === to) return out;
  }
}
