/**
 * Words for an untrusted value in an error message, without ever converting it: String(),
 * template literals and `+ ""` call the value's own toString/valueOf/Symbol.toPrimitive, and a
 * JSON body can make those anything but callable (`{"toString": 1}` → TypeError, a 500 instead
 * of a 400). Only typeof and Array.isArray look at the value. Show a string's content with
 * `quoted`, never by interpolating something that might not be a string.
 */

/** "a string", "a number", "a boolean", "an object", "an array", "null", "undefined" — safe on any value. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** A string shown in a message: JSON-quoted, cut at `maxChars`. */
export function quoted(text: string, maxChars = 100): string {
  return JSON.stringify(text.length > maxChars ? `${text.slice(0, maxChars)}…` : text);
}
