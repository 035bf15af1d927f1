// What a word may expand to, as patterns: quoted text as is, unquoted globs as globs, and
// variables and command substitutions by what the command line itself says they hold — or as
// "anything" when it does not say. Part of hookbox:shell (./index.ts).
import type { ShWord } from "./lex.ts";
import { type ShPattern, SH_MAX_ALTERNATIVES, shAnyPattern, shBraceAlternatives, shGlobTokens, shLiteralPattern } from "./pattern.ts";

/** What a word may name: its alternatives, and the expansions whose value could not be known. */
export interface ShExpansion {
  patterns: ShPattern[];
  /** As written: "$F", "${OUT}", "$(cat list)". */
  unknown: string[];
}

/** Where a word's expansions get their values: the command line read so far. */
export interface ShScope {
  /** The words a variable may hold here; `unknown`: it may also hold what the environment gives. */
  variable(name: string): { words: ShWord[]; unknown: boolean };
  /** What a command substitution prints, when the command line says. */
  substitution(script: string): ShPattern[] | undefined;
  /** Values given as patterns rather than words (what find selects for its {}). */
  patterns?(name: string): ShPattern[] | undefined;
}

const SH_MAX_EXPAND_DEPTH = 4;

/** Every value a word may take, as patterns (bounded: past 64 alternatives, anything). */
export function shExpand(word: ShWord, scope: ShScope, depth = 0): ShExpansion {
  const unknown: string[] = [];
  let alternatives: ShPattern[] = [[]];
  for (const part of word.parts) {
    let options: ShPattern[];
    if (part.kind === "lit") options = [shLiteralPattern(part.text)];
    else if (part.kind === "glob") {
      const texts = shBraceAlternatives(part.text);
      // A glob that matches nothing stays as written: `> .env.loca[l]` then names the file ".env.loca[l]".
      options = texts.flatMap((text) => (/[*?[]/.test(text) ? [shGlobTokens(text, true), shLiteralPattern(text)] : [shGlobTokens(text, true)]));
      if (texts.length > SH_MAX_ALTERNATIVES) {
        unknown.push(`${part.text} (more than ${SH_MAX_ALTERNATIVES} values)`);
        options = [shAnyPattern()];
      }
    } else if (part.kind === "arith") options = [[{ k: "star", dot: false }]];
    else if (part.kind === "sub") {
      const known = part.script !== undefined ? scope.substitution(part.script) : undefined;
      if (known) options = known;
      else {
        unknown.push(part.text);
        options = [shAnyPattern()];
      }
    } else if (part.name !== undefined && scope.patterns?.(part.name)) {
      options = scope.patterns(part.name) as ShPattern[];
    } else if (part.name === undefined || depth >= SH_MAX_EXPAND_DEPTH) {
      unknown.push(part.text);
      options = [shAnyPattern()];
    } else {
      const value = scope.variable(part.name);
      options = [];
      for (const w of value.words) {
        const inner = shExpand(w, scope, depth + 1);
        options.push(...inner.patterns);
        unknown.push(...inner.unknown);
      }
      // ${F:-word} is word when F is unset or empty.
      if (value.unknown || value.words.length === 0 || value.words.some((w) => w.text === "")) {
        if (part.fallback !== undefined)
          options.push(
            ...shBraceAlternatives(part.fallback)
              .slice(0, SH_MAX_ALTERNATIVES)
              .map((text) => shGlobTokens(text, true)),
          );
        if (value.unknown) {
          unknown.push(part.text);
          options.push(shAnyPattern());
        }
      }
      if (options.length === 0) options = [[]];
    }
    const next: ShPattern[] = [];
    for (const head of alternatives) for (const tail of options) if (next.length <= SH_MAX_ALTERNATIVES) next.push([...head, ...tail]);
    if (next.length > SH_MAX_ALTERNATIVES) {
      unknown.push(`${word.text} (more than ${SH_MAX_ALTERNATIVES} values)`);
      alternatives = [shAnyPattern()];
    } else alternatives = next;
  }
  return { patterns: alternatives, unknown: [...new Set(unknown)] };
}
