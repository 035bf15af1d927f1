import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEvent } from "../../src/core/events/parse.ts";
import { agentCallReplySchema } from "../../src/core/wire/agent-call-schema.ts";
import { agentCallReplyOf } from "../../src/core/wire/agent-call.ts";
import { errorBodySchema } from "../../src/core/wire/error-body.ts";
import { ERROR_CODES, errorOfBody } from "../../src/core/wire/errors.ts";
import { nativeEventSchema } from "../../src/core/wire/event.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

/** Values near the shape: valid ones, each field dropped, retyped or replaced. */
function around(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const field = fc.constantFrom(...Object.keys(valid));
  const junk = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.integer(),
    fc.double(),
    fc.string(),
    fc.boolean(),
    fc.constant({}),
    fc.constant([]),
  );
  return fc.oneof(
    fc.constant(valid),
    fc.tuple(field, junk).map(([key, value]) => ({ ...valid, [key]: value })),
    field.map((key) => Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key))),
    fc.jsonValue(),
  );
}

describe("the lean readers emit and the client use agree with the wire schemas", () => {
  it("errorOfBody reads exactly the bodies errorBodySchema accepts", () => {
    const valid = { v: 1, error: { code: "not_found", message: "no hook" } };
    const bodies = fc.oneof(
      around(valid),
      fc.constantFrom(...ERROR_CODES, "nope").map((code) => ({ v: 1, error: { code, message: "m", details: { field: "x" } } })),
      around({ v: 1, error: "x" }),
    );
    fc.assert(
      fc.property(bodies, (body) => {
        const schema = errorBodySchema.safeParse(body);
        const lean = errorOfBody(body);
        expect(lean !== undefined, JSON.stringify(body)).toBe(schema.success);
        if (schema.success) expect(lean).toEqual(schema.data.error);
      }),
      { numRuns: RUNS },
    );
  });

  it("agentCallReplyOf reads exactly the replies agentCallReplySchema accepts", () => {
    const valid = { v: 1, stdout: "{}", stderr: "", exit_code: 2, event_id: "e1" };
    fc.assert(
      fc.property(around(valid), (body) => {
        const schema = agentCallReplySchema.safeParse(body);
        expect(agentCallReplyOf(body) !== undefined, JSON.stringify(body)).toBe(schema.success);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("NativeEventV1 describes what POST /v1/events accepts (src/core/events/parse.ts)", () => {
  const SAMPLES = resolve(import.meta.dirname, "../contracts/samples/native");
  const samples = readdirSync(SAMPLES)
    .filter((name) => name.endsWith(".json"))
    .map((name) => (JSON.parse(readFileSync(join(SAMPLES, name), "utf8")) as { payload: unknown }).payload);

  it("every native sample is accepted by both", () => {
    expect(samples.length).toBeGreaterThan(0);
    for (const sample of samples) {
      expect(() => parseEvent(sample)).not.toThrow();
      expect(nativeEventSchema.safeParse(sample).success, JSON.stringify(sample)).toBe(true);
    }
  });

  it("a field of the wrong type or out of bounds is refused by both", () => {
    const valid = {
      event_type: "PreToolUse",
      session_id: "s",
      cwd: "/work",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      stop_hook_active: false,
      agent: "me",
      prompt: "p",
      tool_use_id: "t",
      timestamp: "2026-01-01T00:00:00Z",
    };
    const cases: Record<string, unknown>[] = [
      { ...valid, cwd: "relative/path" },
      { ...valid, cwd: 3 },
      { ...valid, tool_input: [] },
      { ...valid, tool_input: "ls" },
      { ...valid, stop_hook_active: "yes" },
      { ...valid, session_id: "x".repeat(513) },
      { ...valid, tool_name: 1 },
      { ...valid, agent: "a".repeat(65) },
      { ...valid, prompt: {} },
    ];
    for (const event of cases) {
      expect(() => parseEvent(event), JSON.stringify(event)).toThrow();
      expect(nativeEventSchema.safeParse(event).success, JSON.stringify(event)).toBe(false);
    }
    expect(() => parseEvent(valid)).not.toThrow();
    expect(nativeEventSchema.safeParse(valid).success).toBe(true);
  });
});
