import type { DefaultCeiling } from "../grants/layers.ts";
import type { GrantSources } from "../grants/sources.ts";
import { parsePathPattern, type PathPattern } from "../paths/patterns.ts";

/** The read grants of one hook, parsed once: four lists of path patterns. */
export interface ReadPolicy {
  readonly declared: readonly PathPattern[];
  readonly approval: readonly PathPattern[] | undefined;
  readonly ceiling: readonly PathPattern[] | undefined;
  readonly deny: readonly PathPattern[];
}

/** Without an operator ceiling a hook may read its workspace and Hookbox's own config, nothing else. */
export const DEFAULT_READ_CEILING = ["${workspace}/**", "${home}/.config/hookbox/**"] as const;

export const DEFAULT_READ_PATTERNS: readonly PathPattern[] = DEFAULT_READ_CEILING.map((raw) => {
  const parsed = parsePathPattern(raw);
  if (!parsed.ok) throw new Error(`default read ceiling ${raw}: ${parsed.error}`);
  return parsed.pattern;
});

export function parseReadPolicy(sources: GrantSources, errors: string[]): ReadPolicy {
  const parseList = (list: readonly string[], where: string): PathPattern[] =>
    list.flatMap((raw, index) => {
      const parsed = parsePathPattern(raw);
      if (parsed.ok) return [parsed.pattern];
      errors.push(`${where}[${index}] ${JSON.stringify(raw)}: ${parsed.error}`);
      return [];
    });
  const approval = sources.approval?.read;
  const ceiling = sources.ceiling?.read;
  return {
    declared: parseList(sources.declared.read, `${sources.file}: permissions.read`),
    approval: approval && parseList(approval, `hookbox.yaml hooks.${sources.hookId}.permissions.read`),
    ceiling: ceiling && parseList(ceiling, "hookbox.yaml ceilings.permissions.read"),
    deny: parseList(sources.deny.read, "hookbox.yaml deny.read"),
  };
}

export function readSummary(policy: ReadPolicy): string[] {
  return policy.declared.map((pattern) => `read ${pattern.raw}`);
}

/** The default ceiling as a layer-level refusal, given a matcher bound to the invocation. */
export function defaultReadCeiling(matches: (patterns: readonly PathPattern[], path: string) => boolean): DefaultCeiling<string> {
  return {
    refuse: (path) => (matches(DEFAULT_READ_PATTERNS, path) ? undefined : `by default hooks read only ${DEFAULT_READ_CEILING.join(" and ")}`),
  };
}
