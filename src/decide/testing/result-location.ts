import { hookResultSchema } from "../../core/events/result.ts";

/**
 * Where in a handler's source an invalid result it returned was most likely written: the
 * result is a value, so its line is found by what is wrong with it — the unknown key
 * (`acton:`), or the key and the bad value together (`action: "dny"`), else the key alone.
 * Undefined when the source shows neither (the result was built some other way).
 */
export function locateInvalidResult(source: string, value: unknown): { line: number; column: number } | undefined {
  const lines = source.split("\n");
  const find = (pattern: RegExp): { line: number; column: number } | undefined => {
    for (const [index, text] of lines.entries()) {
      const match = pattern.exec(text);
      if (match) return { line: index + 1, column: match.index + 1 };
    }
    return undefined;
  };
  if (value !== null && typeof value === "object" && (value as { action?: unknown }).action === "modify" && !(value as { data?: unknown }).data)
    return find(/["']modify["']/);
  const parsed = hookResultSchema.safeParse(value);
  if (parsed.success) return undefined;
  for (const issue of parsed.error.issues) {
    if (issue.code === "unrecognized_keys") {
      const key = issue.keys[0];
      const found = key === undefined ? undefined : find(keyPattern(key));
      if (found) return found;
      continue;
    }
    const key = issue.path.at(-1);
    if (typeof key !== "string") continue;
    const bad = issue.path.reduce<unknown>(
      (at, step) => (at !== null && typeof at === "object" ? (at as Record<string | number, unknown>)[step as string] : undefined),
      value,
    );
    const literal =
      typeof bad === "string" ? `["'\`]${escape(bad)}["'\`]` : typeof bad === "number" || typeof bad === "boolean" ? escape(String(bad)) : undefined;
    const found = (literal ? find(new RegExp(`${keyPattern(key).source}\\s*${literal}`)) : undefined) ?? find(keyPattern(key));
    if (found) return found;
  }
  return undefined;
}

/** `key:` or `"key":` as an object literal writes it. */
function keyPattern(key: string): RegExp {
  return new RegExp(`(?<![\\w$])["']?${escape(key)}["']?\\s*:`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
