import { describe, expect, it } from "vitest";
import { noun, plural } from "../../src/core/text/plural.ts";
import { lineWidth, wrap } from "../../src/core/text/wrap.ts";

describe("wrap: prose at a width, breaking at spaces only", () => {
  it.each([
    ["short", 20, "", "", ["short"]],
    ["one two three four", 9, "", "", ["one two", "three", "four"]],
    ["one two three four", 12, "> ", "  ", ["> one two", "  three four"]],
    // A word longer than the line (a path) stays whole, on a line of its own.
    ["see /a/very/long/path/that/does/not/fit here", 12, "", "  ", ["see", "  /a/very/long/path/that/does/not/fit", "  here"]],
    ["  spaces   collapse  ", 40, "", "", ["spaces collapse"]],
    ["", 10, "x ", "", ["x "]],
  ] as const)("%j at %i", (text, width, first, rest, expected) => {
    const lines = wrap(text, width, first, rest);
    expect(lines).toEqual(expected);
    // Every line fits, or is one word too long to.
    for (const line of lines) expect(line.length <= width || !line.trim().includes(" "), line).toBe(true);
  });

  it("the width: the terminal's when narrower than 100, never under 40, 100 without a terminal", () => {
    expect([lineWidth(undefined), lineWidth(0), lineWidth(80), lineWidth(200), lineWidth(20), lineWidth(Number.NaN)]).toEqual([
      100, 100, 80, 100, 40, 100,
    ]);
  });
});

describe("plural: the count and its noun", () => {
  it.each([
    [0, "denial", "0 denials"],
    [1, "denial", "1 denial"],
    [2, "denial", "2 denials"],
    [1, "entry", "1 entry"],
    [3, "entry", "3 entries"],
    [2, "match", "2 matches"],
    [2, "box", "2 boxes"],
    [2, "ms", "2 ms", "ms"],
  ] as const)("%i %s", (count, singular, expected, pluralForm?: string) => {
    expect(plural(count, singular, pluralForm)).toBe(expected);
  });

  it("verbs agree too", () => {
    expect([noun(1, "is"), noun(2, "is"), noun(1, "was"), noun(5, "was")]).toEqual(["is", "are", "was", "were"]);
  });
});
