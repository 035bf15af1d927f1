import { invalidArgument } from "./errors.ts";

/**
 * Strict checks of the JSON arguments a guest passed to `hook.<api>(…)`. Hostile input is the
 * normal case: every string is length-capped and NUL-free, every number bounded, every option
 * object closed (an unknown key is an error, as a typo must not silently change behaviour).
 */

export const MAX_PATH_CHARS = 4096;

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

export function stringArg(
  api: string,
  what: string,
  value: unknown,
  maxChars: number,
  options: { allowEmpty?: boolean; allowNul?: boolean } = {},
): string {
  if (typeof value !== "string") throw invalidArgument(`hook.${api}: ${what} must be a string, got ${typeName(value)}`);
  if (!options.allowEmpty && value.length === 0) throw invalidArgument(`hook.${api}: ${what} must not be empty`);
  if (value.length > maxChars) throw invalidArgument(`hook.${api}: ${what} is longer than ${maxChars} characters`);
  if (!options.allowNul && value.includes("\0")) throw invalidArgument(`hook.${api}: ${what} contains a NUL character`);
  return value;
}

export function pathArg(api: string, value: unknown): string {
  return stringArg(api, "path", value, MAX_PATH_CHARS);
}

/** An options object: absent (undefined or null) means {}; any key not in `keys` is an error. */
export function optionsArg(api: string, value: unknown, keys: readonly string[]): Readonly<Record<string, unknown>> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw invalidArgument(`hook.${api}: options must be an object, got ${typeName(value)}`);
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!keys.includes(key)) throw invalidArgument(`hook.${api}: unknown option ${JSON.stringify(key)} (expected ${keys.join(", ")})`);
  }
  return record;
}

export function intOption(
  api: string,
  options: Readonly<Record<string, unknown>>,
  key: string,
  range: { min: number; max: number; fallback: number },
): number {
  const value = options[key];
  if (value === undefined || value === null) return range.fallback;
  if (typeof value !== "number" || !Number.isInteger(value))
    throw invalidArgument(`hook.${api}: ${key} must be a whole number, got ${typeName(value)}`);
  if (value < range.min || value > range.max)
    throw invalidArgument(`hook.${api}: ${key} must be between ${range.min} and ${range.max}, got ${value}`);
  return value;
}

export function boolOption(api: string, options: Readonly<Record<string, unknown>>, key: string, fallback: boolean): boolean {
  const value = options[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "boolean") throw invalidArgument(`hook.${api}: ${key} must be true or false, got ${typeName(value)}`);
  return value;
}

export function stringListArg(api: string, what: string, value: unknown, limits: { maxItems: number; maxChars: number }): string[] {
  if (!Array.isArray(value)) throw invalidArgument(`hook.${api}: ${what} must be an array of strings, got ${typeName(value)}`);
  if (value.length > limits.maxItems) throw invalidArgument(`hook.${api}: ${what} has more than ${limits.maxItems} items`);
  return value.map((item, index) => stringArg(api, `${what}[${index}]`, item, limits.maxChars, { allowEmpty: true }));
}

/** No more positional arguments than the API takes: extra ones are a mistake worth reporting. */
export function arity(api: string, args: readonly unknown[], max: number): void {
  if (args.length > max && args.slice(max).some((arg) => arg !== null && arg !== undefined)) {
    throw invalidArgument(`hook.${api} takes at most ${max} argument${max === 1 ? "" : "s"}, got ${args.length}`);
  }
}
