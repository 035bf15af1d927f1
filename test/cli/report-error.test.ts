import { describe, expect, it } from "vitest";
import { HookboxError } from "../../src/core/errors.ts";
import { errorFormatOf, reportError } from "../../src/cli/report-error.ts";

describe("reportError: one line of text, or with --json one JSON object", () => {
  it.each([
    [["show", "x", "--json"], "json"],
    [["--json", "list"], "json"],
    [["show", "x"], "text"],
    // After --, it is an argument.
    [["run", "h.ts", "--", "--json"], "text"],
  ] as const)("%j → %s", (args, expected) => {
    expect(errorFormatOf(args)).toBe(expected);
  });

  it("the same error, both ways, with the same exit code", () => {
    const error = new HookboxError("not_found", 'no hook "x"');
    const text: string[] = [];
    const json: string[] = [];
    expect(reportError((t) => text.push(t), error, false)).toBe(1);
    expect(reportError((t) => json.push(t), error, false, "json")).toBe(1);
    expect(text.join("")).toBe('error[not_found]: no hook "x"\n');
    expect(JSON.parse(json.join(""))).toEqual({ v: 1, error: { code: "not_found", message: 'no hook "x"', exit_code: 1 } });
    const bug: string[] = [];
    expect(reportError((t) => bug.push(t), new TypeError("boom\nmore"), false, "json")).toBe(3);
    expect(JSON.parse(bug.join(""))).toMatchObject({
      error: { code: "internal", message: expect.stringMatching(/^boom \(a bug in Hookbox/), exit_code: 3 },
    });
  });
});
