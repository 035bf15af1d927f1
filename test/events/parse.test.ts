import { describe, expect, it } from "vitest";
import { HookboxError } from "../../src/core/errors.ts";
import { describeValue } from "../../src/core/events/describe.ts";
import { parseEvent } from "../../src/core/events/parse.ts";
import { PROTOCOLS } from "../../src/agents/protocols.ts";

/** Values whose own conversion throws or lies: String(), `${}` and + "" call into them. */
const HOSTILE: readonly unknown[] = [
  JSON.parse('{"toString": 1}'),
  JSON.parse('{"toString": 1, "valueOf": 1}'),
  JSON.parse('{"valueOf": {}, "toString": []}'),
  Object.create(null),
  {
    [Symbol.toPrimitive]: () => {
      throw new Error("boom");
    },
  },
  [JSON.parse('{"toString": 1}')],
];

function eventInvalid(run: () => unknown): HookboxError {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown instanceof HookboxError, String(thrown instanceof Error ? thrown.message : "no error")).toBe(true);
  expect((thrown as HookboxError).code).toBe("event_invalid");
  return thrown as HookboxError;
}

describe("describeValue never converts the value it describes", () => {
  it.each([
    [null, "null"],
    [undefined, "undefined"],
    ["x", "a string"],
    [1, "a number"],
    [true, "a boolean"],
    [[1], "an array"],
    [{}, "an object"],
  ])("%j → %s", (value, expected) => {
    expect(describeValue(value)).toBe(expected);
  });

  it.each(HOSTILE.map((value, i) => [i, value]))("hostile value %i", (_i, value) => {
    expect(() => describeValue(value)).not.toThrow();
  });
});

describe("parseEvent: a hostile value in any checked field is event_invalid, never a TypeError", () => {
  const fields = ["event_type", "session_id", "timestamp", "tool_name", "tool_use_id", "prompt", "agent", "cwd", "stop_hook_active"]; // tool_input is an object: these are valid ones
  for (const field of fields) {
    it.each(HOSTILE.map((value, i) => [i, value]))(`${field} = hostile value %i, with and without an event type in the URL`, (_i, value) => {
      const body = { event_type: "Stop", session_id: "s", [field]: value };
      const error = eventInvalid(() => parseEvent(body, "Stop"));
      expect(error.message).toMatch(new RegExp(`^${field}: `));
      eventInvalid(() => parseEvent(body));
    });
  }

  it('F8: {"event_type": {"toString": 1}} names what was found', () => {
    const error = eventInvalid(() => parseEvent(JSON.parse('{"session_id":"s","event_type":{"toString":1}}'), "PreToolUse"));
    expect(error.message).toBe("event_type: expected a string, found an object");
  });

  it("a string event_type that differs from the URL is quoted and capped", () => {
    const error = eventInvalid(() => parseEvent({ event_type: `Pre${"x".repeat(500)}` }, "Stop"));
    expect(error.message).toMatch(/^event_type: event_type in the body \("Prex+…"\) differs from the URL \("Stop"\)$/);
    expect(error.message.length).toBeLessThan(200);
  });

  it("a megabyte event name is refused quickly (no quadratic typo suggestion) with a capped message", () => {
    const start = performance.now();
    const error = eventInvalid(() => parseEvent({ event_type: "X".repeat(1024 * 1024) }));
    expect(performance.now() - start).toBeLessThan(500);
    expect(error.message.length).toBeLessThan(1000);
  });

  it("permitted neighbour: the same event with strings", () => {
    expect(parseEvent({ event_type: "Stop", session_id: "s" }, "Stop")).toMatchObject({ event_type: "Stop", session_id: "s" });
  });
});

describe("every protocol's decode: hostile values are event_invalid", () => {
  for (const [name, protocol] of Object.entries(PROTOCOLS)) {
    it.each(HOSTILE.map((value, i) => [i, value]))(`${name}: hostile value %i in every top-level field`, (_i, value) => {
      for (const field of [
        "event_type",
        "hook_event_name",
        "hookEventName",
        "session_id",
        "sessionId",
        "conversation_id",
        "tool_name",
        "toolName",
        "cwd",
        "timestamp",
        "prompt",
        "tool_input",
        "toolArgs",
      ]) {
        const payload = {
          hook_event_name: "PreToolUse",
          event_type: "PreToolUse",
          session_id: "s",
          tool_name: "Bash",
          tool_input: { command: "ls" },
          [field]: value,
        };
        try {
          protocol.decode(payload, { eventName: "PreToolUse" });
        } catch (error) {
          expect(
            error instanceof HookboxError && error.code === "event_invalid",
            `${name} ${field}: ${error instanceof Error ? error.message : "non-error"}`,
          ).toBe(true);
        }
      }
    });
  }
});
