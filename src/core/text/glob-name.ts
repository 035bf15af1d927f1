/**
 * One name (path segment) of a glob: fixed-width tokens (a character, `?`, a class) with `*`
 * between them, matched as a bit-parallel NFA (shift-and): one pass over the name, a few word
 * operations per character — no backtracking, whatever the glob (F9).
 */

/** Why a glob is refused (the message is shown to the hook author). */
export class GlobError extends Error {}

export const STAR = -1;
export const ANY = -2;

export interface CharClass {
  readonly negated: boolean;
  /** Sorted, non-overlapping inclusive code point ranges: [from, to, from, to, …]. */
  readonly ranges: Int32Array;
}

/** A code point, STAR, ANY or a class. */
export type Token = number | CharClass;

/** The index of the `]` closing the class opened at `start`, or -1. A `]` first in the class is a member. */
export function classEnd(text: string, start: number): number {
  let i = start + 1;
  if (text[i] === "!" || text[i] === "^") i++;
  if (text[i] === "]") i++;
  for (; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "]") return i;
  }
  return -1;
}

/** The body of `[…]` (between the brackets): `!` or `^` negates; `a-z` ranges; `\x` is x. */
export function parseClass(body: string): CharClass {
  const negated = body.startsWith("!") || body.startsWith("^");
  const members: { code: number; dash: boolean }[] = [];
  for (let i = negated ? 1 : 0; i < body.length;) {
    // "[[:alpha:]]": the class ends at the first "]", so the body is "[:alpha:".
    if (/^\[:[a-z]+:(\]|$)/.test(body.slice(i, i + 12))) {
      throw new GlobError("POSIX classes such as [:alpha:] are not supported: write the range ([a-zA-Z])");
    }
    const escaped = body[i] === "\\";
    if (escaped) i++;
    const code = body.codePointAt(i) as number;
    i += code > 0xffff ? 2 : 1;
    members.push({ code, dash: !escaped && code === 0x2d });
  }
  const pairs: [number, number][] = [];
  for (let m = 0; m < members.length; m++) {
    const from = (members[m] as { code: number }).code;
    const to = members[m + 2];
    if (members[m + 1]?.dash && to) {
      if (to.code < from) throw new GlobError(`empty range "${String.fromCodePoint(from)}-${String.fromCodePoint(to.code)}" in a class`);
      pairs.push([from, to.code]);
      m += 2;
    } else {
      pairs.push([from, from]);
    }
  }
  if (pairs.some(([from, to]) => from <= 0x2f && 0x2f <= to)) throw new GlobError('a class cannot contain "/" (it matches one character of a name)');
  pairs.sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [from, to] of pairs) {
    const last = merged.length - 1;
    if (last > 0 && from <= (merged[last] as number) + 1) merged[last] = Math.max(merged[last] as number, to);
    else merged.push(from, to);
  }
  return { negated, ranges: Int32Array.from(merged) };
}

function inClass(cls: CharClass, code: number): boolean {
  const { ranges } = cls;
  let low = 0;
  let high = ranges.length / 2 - 1;
  let inside = false;
  while (low <= high && !inside) {
    const mid = (low + high) >> 1;
    if (code < (ranges[2 * mid] as number)) high = mid - 1;
    else if (code > (ranges[2 * mid + 1] as number)) low = mid + 1;
    else inside = true;
  }
  return inside !== cls.negated;
}

/**
 * A matcher for one name. State i (bit i) = the first i fixed tokens matched; a `*` after token i
 * is a self-loop on state i. Per character: next = (active << 1 & tokens matching it) | (active & loops).
 */
export function compileName(tokens: readonly Token[]): (name: string) => boolean {
  const fixed = tokens.filter((token) => token !== STAR).length;
  if (fixed === 0) return () => true;
  const words = (fixed >> 5) + 1;
  const loops = new Uint32Array(words);
  const any = new Uint32Array(words);
  const literal = new Map<number, Uint32Array>();
  const classes: [state: number, cls: CharClass][] = [];
  const set = (bits: Uint32Array, state: number): void => {
    bits[state >> 5] = (bits[state >> 5] as number) | (1 << (state & 31));
  };
  let state = 0;
  for (const token of tokens) {
    if (token === STAR) {
      set(loops, state);
      continue;
    }
    state++;
    if (token === ANY) {
      set(any, state);
    } else if (typeof token === "number") {
      let bits = literal.get(token);
      if (!bits) literal.set(token, (bits = new Uint32Array(words)));
      set(bits, state);
    } else {
      classes.push([state, token]);
    }
  }
  const starless = !tokens.includes(STAR);
  const active = new Uint32Array(words);
  const mask = new Uint32Array(words);
  return (name) => {
    // Without a star the name has exactly `fixed` characters (each one or two UTF-16 units).
    if (starless && (name.length < fixed || name.length > 2 * fixed)) return false;
    active.fill(0);
    active[0] = 1;
    for (let i = 0; i < name.length;) {
      const code = name.codePointAt(i) as number;
      i += code > 0xffff ? 2 : 1;
      const bits = literal.get(code);
      for (let w = 0; w < words; w++) mask[w] = (any[w] as number) | (bits ? (bits[w] as number) : 0);
      for (const [at, cls] of classes) if (inClass(cls, code)) set(mask, at);
      let carry = 0;
      let alive = 0;
      for (let w = 0; w < words; w++) {
        const bitsNow = active[w] as number;
        const next = (((bitsNow << 1) | carry) & (mask[w] as number)) | (bitsNow & (loops[w] as number));
        carry = bitsNow >>> 31;
        active[w] = next;
        alive |= next;
      }
      if (alive === 0) return false;
    }
    return ((active[fixed >> 5] as number) & (1 << (fixed & 31))) !== 0;
  };
}
