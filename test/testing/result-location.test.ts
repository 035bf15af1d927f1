import { describe, expect, it } from "vitest";
import { locateInvalidResult } from "../../src/decide/testing/result-location.ts";

const SOURCE = `export default function (event: HookEvent) {
  const action = "deny";
  if (event.tool_name === "Bash") return { action: "dny", reason: "no shell" };
  if (event.tool_name === "Write") return { acton: "deny" };
  if (event.tool_name === "Edit") return { action: "modify" };
  if (event.tool_name === "Read") return { "user_message_level": "loud" };
  return { action, suppress_output: "yes" };
}
`;

describe("where an invalid result was written", () => {
  it.each([
    ["a bad value: the key and the value together, not the first line naming the key", { action: "dny", reason: "no shell" }, 3, 'action: "dny"'],
    ["an unknown key", { acton: "deny" }, 4, "acton"],
    ["a modify without data", { action: "modify" }, 5, '"modify"'],
    ["a quoted key", { user_message_level: "loud" }, 6, '"user_message_level"'],
    ["a value of the wrong type", { action: "deny", suppress_output: "yes" }, 7, "suppress_output"],
  ])("%s", (_case, value, line, text) => {
    expect(locateInvalidResult(SOURCE, value)).toEqual({ line, column: (SOURCE.split("\n")[line - 1] as string).indexOf(text) + 1 });
  });

  it("nothing when the source does not show it, or the result is valid", () => {
    expect(locateInvalidResult(SOURCE, { approval_timeout_ms: -1 })).toBeUndefined();
    expect(locateInvalidResult(SOURCE, { action: "deny" })).toBeUndefined();
  });
});
