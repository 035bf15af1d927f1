/**
 * Consent to grants, as browser extensions ask it: the whole list before an install, and again
 * for whatever an update adds. Without a terminal, `--yes` accepts only the grants `--allow`
 * names exactly; a refusal says the exact flags that would accept what is asked.
 */

export interface GrantDiff {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly kept: readonly string[];
}

export function grantDiff(before: readonly string[], after: readonly string[]): GrantDiff {
  const old = new Set(before);
  const next = new Set(after);
  return { added: after.filter((key) => !old.has(key)), removed: before.filter((key) => !next.has(key)), kept: after.filter((key) => old.has(key)) };
}

/** A word for a POSIX shell: single-quoted unless it needs no quoting. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The flags that accept exactly these grants. */
export function allowFlags(keys: readonly string[]): string {
  return ["--yes", ...keys.map((key) => `--allow ${shellWord(key)}`)].join(" ");
}

/** The grants of `needed` that `--allow` did not name; empty when consent is complete. */
export function notAllowed(needed: readonly string[], allowed: readonly string[]): string[] {
  const given = new Set(allowed.map((key) => key.trim()));
  return needed.filter((key) => !given.has(key));
}
