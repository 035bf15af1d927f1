import type { LoadedHook } from "../../hooks/registry/load.ts";

/**
 * A hook's effective grants, in words, one line each: what the console's Hooks page shows.
 * For now the registration shape's summary (what `hookbox list` prints after "may:"). The
 * permission review shared by list, validate, doctor and add (src/capabilities/review) replaces
 * this function's body once it lands: `entry.review.lines.map(formatReview)`.
 */
export function grantsInWords(hook: LoadedHook): readonly string[] {
  return hook.grants.summary;
}
