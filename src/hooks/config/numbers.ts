import { z } from "zod";

/** A whole number of `unit` in [min, max]: the messages every bounded number in the YAML gives. */
export function wholeNumber(min: number, max: number, unit: string) {
  return z
    .number({ error: `expected a whole number of ${unit}` })
    .int(`expected a whole number of ${unit}`)
    .min(min, `must be at least ${min} ${unit}`)
    .max(max, `must be at most ${max} ${unit}`);
}

/** wholeNumber, `fallback` when absent. */
export function intIn(min: number, max: number, fallback: number, unit: string) {
  return wholeNumber(min, max, unit).default(fallback);
}
