import { describe, expect, it } from "vitest";
import { render } from "../../src/decide/steps/template.ts";

const scope = {
  event: { event_type: "file.changed", path: "/w/src/a.ts", nested: { n: 3, flag: true }, list: ["a", "b"] },
  steps: [
    { stdout: "out text", exit_code: 0, _step_index: 0 },
    { content: "file body", _step_index: 1 },
    { failures: ["t::a", "t::b"], exit_code: 1, passed: false, _step_index: 2 },
    { count: 0, files: [], _step_index: 3 },
  ],
};

describe("{{…}} placeholders, as the seed engine reads them", () => {
  it.each([
    ["{{event.path}}", "/w/src/a.ts"],
    ["{{ event.path }}", "/w/src/a.ts"],
    ["{{event.nested.n}} {{event.nested.flag}}", "3 true"],
    ["{{event.list}}", '["a","b"]'],
    ["{{step_0}}", "out text"],
    ["{{step_1}}", "file body"],
    ["{{step_0.exit_code}}", "0"],
    ["{{step_2.failures}}", '["t::a","t::b"]'],
    ["{{step_2.passed}}", "false"],
    ["{{step_3}}", '{"count":0,"files":[],"_step_index":3}'],
    // A known step's missing field is empty; what names nothing known is left as written.
    ["[{{step_0.nope}}]", "[]"],
    ["{{event.missing.deeper}}", ""],
    ["{{step_9.stdout}}", "{{step_9.stdout}}"],
    ["{{steps}}", "{{steps}}"],
    ["{{env.HOME}}", "{{env.HOME}}"],
    ["{{ }}", "{{ }}"],
    ["no placeholders", "no placeholders"],
  ])("%s → %s", (template, expected) => {
    expect(render(template, scope)).toBe(expected);
  });

  it("{{event}} is the whole event as JSON", () => {
    expect(JSON.parse(render("{{event}}", scope))).toEqual(scope.event);
  });

  it("a value is inserted once, never read again as a template", () => {
    const tricky = { event: { a: "{{event.b}}", b: "secret" }, steps: [] };
    expect(render("{{event.a}}", tricky)).toBe("{{event.b}}");
  });
});
