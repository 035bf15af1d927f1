/** Nouns whose plural is not the singular plus "s". */
const IRREGULAR: Readonly<Record<string, string>> = { entry: "entries", is: "are", was: "were", does: "do", has: "have", this: "these" };

/** The noun for `count` of it: "denial" for 1, "denials" otherwise ("entry" → "entries"). */
export function noun(count: number, singular: string, plural?: string): string {
  if (count === 1) return singular;
  return plural ?? IRREGULAR[singular] ?? (/(s|x|ch|sh)$/.test(singular) ? `${singular}es` : `${singular}s`);
}

/** A count and its noun: "1 denial", "2 denials", "0 entries". */
export function plural(count: number, singular: string, pluralForm?: string): string {
  return `${count} ${noun(count, singular, pluralForm)}`;
}
