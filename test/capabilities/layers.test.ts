import { describe, expect, it } from "vitest";
import { decide, listLayer, type KindLayers } from "../../src/capabilities/grants/layers.ts";

const layer = (rules: string[] | undefined) =>
  rules &&
  listLayer(
    rules,
    (rule: string, access: string) => rule === access,
    (rule) => rule,
  );
const layers = (o: {
  declared: string[];
  approval?: string[];
  ceiling?: string[];
  deny?: string[];
  defaultRefuses?: string[];
}): KindLayers<string> => ({
  declared: layer(o.declared) as NonNullable<ReturnType<typeof layer>>,
  approval: layer(o.approval),
  ceiling: layer(o.ceiling),
  defaultCeiling: { refuse: (access) => (o.defaultRefuses?.includes(access) ? `default refuses ${access}` : undefined) },
  deny: layer(o.deny ?? []) as NonNullable<ReturnType<typeof layer>>,
});

// declared ∩ approval ∩ (ceiling | default) − deny, with deny first and explicit approval lifting only the default.
const TABLE: { name: string; layers: Parameters<typeof layers>[0]; expected: string }[] = [
  { name: "declared only, default allows", layers: { declared: ["a"] }, expected: "ok" },
  { name: "not declared", layers: { declared: ["b"] }, expected: "declared" },
  { name: "declared, default ceiling refuses", layers: { declared: ["a"], defaultRefuses: ["a"] }, expected: "default" },
  { name: "declared, default refuses, approved for the hook", layers: { declared: ["a"], approval: ["a"], defaultRefuses: ["a"] }, expected: "ok" },
  { name: "declared, approval present without it", layers: { declared: ["a"], approval: ["b"] }, expected: "approval" },
  { name: "declared, approval present and empty", layers: { declared: ["a"], approval: [] }, expected: "approval" },
  { name: "declared, explicit ceiling has it", layers: { declared: ["a"], ceiling: ["a"], defaultRefuses: ["a"] }, expected: "ok" },
  { name: "declared, explicit ceiling lacks it", layers: { declared: ["a"], ceiling: ["b"] }, expected: "ceiling" },
  { name: "explicit ceiling is not lifted by approval", layers: { declared: ["a"], approval: ["a"], ceiling: ["b"] }, expected: "ceiling" },
  { name: "deny wins over everything", layers: { declared: ["a"], approval: ["a"], ceiling: ["a"], deny: ["a"] }, expected: "deny" },
  { name: "deny wins even when not declared", layers: { declared: [], deny: ["a"] }, expected: "deny" },
  { name: "deny of a neighbour does not apply", layers: { declared: ["a"], deny: ["ab"] }, expected: "ok" },
];

describe("decide (the intersection rule)", () => {
  it.each(TABLE)("$name → $expected", ({ layers: spec, expected }) => {
    const verdict = decide(layers(spec), "a");
    expect(verdict.ok ? "ok" : verdict.by).toBe(expected);
  });

  it("reports the operator's block alongside a missing declaration", () => {
    const verdict = decide(layers({ declared: [], defaultRefuses: ["a"] }), "a");
    expect(verdict).toEqual({ ok: false, by: "declared", operator: { by: "default", reason: "default refuses a" } });
  });
});
