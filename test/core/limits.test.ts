import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { DEFAULT_LIMITS, limitExceeded, type LimitName, type SandboxFailure, type SandboxLimits } from "../../sandbox/index.ts";
import { limitsFromFlags, addLimitFlags } from "../../src/cli/limits-flags.ts";
import { jsonSchemaOf } from "../../src/cli/schema.ts";
import { byLimit, inYamlUnits, LIMITS, limitFlag, toSandboxLimits, type LimitDescriptor, type LimitsTable } from "../../src/core/limits.ts";
import { ERROR_CODES } from "../../src/core/wire/error-codes.ts";
import { hookRegistrationSchema } from "../../src/core/wire/hooks.ts";
import { limitsWireSchemaOf } from "../../src/core/wire/limits.ts";
import { scaffold, scaffoldLimits } from "../../src/decide/testing/scaffold.ts";
import { communityLimitsOf, limitsOverrideSchemaOf, limitsSchemaOf } from "../../src/hooks/config/limits-schema.ts";
import { resolveHook } from "../../src/hooks/config/resolve.ts";
import { hookFileSchema, operatorFileSchema } from "../../src/hooks/config/schema.ts";
import { registration } from "../../src/hooks/registry/registration.ts";
import type { RegistryEntry } from "../../src/hooks/registry/registry.ts";
import { README } from "../helpers/readme.ts";

/**
 * The limits table (src/core/limits.ts) is the one place a limit is spelled: every other view is
 * derived from it here and compared. `disagreements(table)` takes the table as an argument, so a
 * table with one more row shows which views follow by themselves (all those built from the table)
 * and which must still be written by hand (README's row, and the sandbox that enforces it).
 */

/** README's "Limits, defaults and units" table: key → [default, what]. */
function readmeRows(): Map<string, [string, string]> {
  const section = README.slice(README.indexOf("| YAML key | default | what |"));
  const table = section.slice(0, section.indexOf("\n\n"));
  return new Map(
    [...table.matchAll(/^\s*\| `([a-z_]+)` \| ([^|]+) \| (.+) \|$/gm)].map((m) => [m[1] as string, [(m[2] as string).trim(), m[3] as string]]),
  );
}

const SANDBOX_UNIT = { ms: "ms", MiB: "bytes", KiB: "bytes", calls: "calls" } as const;

/** Commander's name for a flag's value. */
const optionKey = (d: LimitDescriptor): string => d.yaml.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());

/** The sandbox's failure for a limit, undefined when it knows no such limit. */
function sandboxFailure(d: LimitDescriptor, limits: SandboxLimits): SandboxFailure | undefined {
  try {
    return limitExceeded(d.sandbox as LimitName, limits);
  } catch {
    return undefined;
  }
}

/** Every way the views built from `table`, the docs and the sandbox fail to agree with it, one line each. */
function disagreements(table: LimitsTable): string[] {
  const out: string[] = [];
  const schema = limitsSchemaOf(table);
  const override = limitsOverrideSchemaOf(table);
  const community = communityLimitsOf(table) as Record<string, number | undefined>;
  const command = addLimitFlags(new Command("run"), table);
  const wire = limitsWireSchemaOf(table).shape as Record<string, unknown>;
  const readme = readmeRows();
  const defaults = schema.parse({}) as Record<string, number>;
  const sandboxDefaults = toSandboxLimits(defaults, table) as unknown as Record<string, number>;
  for (const d of table) {
    const says = (what: string) => out.push(`${d.yaml}: ${what}`);
    // The YAML: default, bounds and their messages, in the unit the key names.
    if (defaults[d.yaml] !== d.default) says(`limits: defaults to ${defaults[d.yaml]}, not ${d.default}`);
    const over = schema.safeParse({ [d.yaml]: d.max + 1 });
    if (over.success || !over.error.issues.some((i) => i.message === `must be at most ${d.max} ${d.unit}`)) says(`limits: accepts ${d.max + 1}`);
    const under = schema.safeParse({ [d.yaml]: d.min - 1 });
    if (under.success || !under.error.issues.some((i) => i.message === `must be at least ${d.min} ${d.unit}`)) says(`limits: accepts ${d.min - 1}`);
    if (schema.safeParse({ [d.yaml]: d.min + 0.5 }).success) says("limits: accepts a fraction");
    // The operator's overrides and ceilings: the key, no default.
    const written = override.safeParse({ [d.yaml]: d.min });
    if (!written.success || d.yaml in override.parse({})) says("the operator's limits: not the key, or a default");
    if (community[d.yaml] !== d.community) says(`community_limits: ${community[d.yaml]}, not ${d.community}`);
    // The flag of `hookbox run`, its help and its value in the sandbox's unit.
    const option = command.options.find((o) => o.long === limitFlag(d));
    if (!option) says(`no ${limitFlag(d)} flag`);
    else if (option.description !== `limits.${d.yaml}: ${d.min}–${d.max} (default ${d.default})`)
      says(`${limitFlag(d)}: help "${option.description}"`);
    const flagged = limitsFromFlags({ [optionKey(d)]: String(d.max) }, table) as unknown as Record<string, number>;
    if (flagged[d.sandbox] !== d.max * d.scale) says(`${limitFlag(d)} ${d.max} gives ${flagged[d.sandbox]} ${d.sandbox}`);
    if (sandboxDefaults[d.sandbox] !== d.default * d.scale)
      says(`the sandbox's default is ${sandboxDefaults[d.sandbox]}, not ${d.default * d.scale}`);
    // Registration JSON: the key, in its unit.
    if (!(d.yaml in wire)) says("missing from the registration's wire schema");
    const shown: Record<string, number> = inYamlUnits(toSandboxLimits({ ...defaults, [d.yaml]: d.max }, table), table);
    if (shown[d.yaml] !== d.max) says("registration does not show it in its unit");
    // The scaffold of `hookbox new`.
    if (d.scaffold !== undefined && !scaffoldLimits(table).includes(`${d.yaml}: ${d.scaffold}`)) says("missing from the scaffold");
    // README's table.
    const row = readme.get(d.yaml);
    if (!row) says("no row in README's limits table");
    else if (row[0] !== String(d.default) || row[1] !== d.description) says(`README's row says ${row.join(" | ")}`);
    if (!README.includes(`\`${limitFlag(d)}\``)) says(`README does not name ${limitFlag(d)}`);
    if (!README.includes(`\`${d.code}\``)) says(`README does not name ${d.code}`);
    // The sandbox's failure text and code; the wire's list of codes.
    const failure = sandboxFailure(d, sandboxDefaults as unknown as SandboxLimits);
    if (!failure) says("the sandbox has no failure for it");
    else {
      if (failure.code !== d.code) says(`the sandbox fails it with ${failure.code}, not ${d.code}`);
      if (!failure.message.includes(`raise limits.${d.yaml} in the hook's YAML`))
        says(`the sandbox's failure text names no limits.${d.yaml}: ${failure.message}`);
      if (failure.limit?.unit !== SANDBOX_UNIT[d.unit]) says(`the sandbox reports it in ${failure.limit?.unit}`);
    }
    if (!(ERROR_CODES as readonly string[]).includes(d.code)) says(`${d.code} is not a wire error code`);
  }
  for (const key of readme.keys()) if (!table.some((d) => d.yaml === key)) out.push(`${key}: in README's table, not in the limits table`);
  return out;
}

describe("the limits table", () => {
  it("each row: a unit-named key, whole bounds in that unit around its default, and a row per sandbox limit", () => {
    const suffix = { ms: "_ms", MiB: "_mb", KiB: "_kb", calls: "_calls" };
    for (const d of LIMITS) {
      expect(d.yaml.endsWith(suffix[d.unit]), d.yaml).toBe(true);
      expect(d.sandbox.toLowerCase().endsWith(SANDBOX_UNIT[d.unit]), d.sandbox).toBe(true);
      for (const n of [d.min, d.default, d.max, d.community ?? d.min, d.scaffold ?? d.min]) expect(Number.isInteger(n), `${d.yaml} ${n}`).toBe(true);
      expect(d.min <= d.default && d.default <= d.max, d.yaml).toBe(true);
      for (const n of [d.community, d.scaffold]) if (n !== undefined) expect(n >= d.min && n <= d.max, `${d.yaml} ${n}`).toBe(true);
    }
    expect(new Set(LIMITS.map((d) => d.yaml)).size).toBe(LIMITS.length);
    expect(LIMITS.map((d) => d.sandbox).sort()).toEqual(Object.keys(DEFAULT_LIMITS).sort());
    expect(toSandboxLimits(byLimit(LIMITS, (d) => d.default))).toEqual(DEFAULT_LIMITS);
  });

  it("every view agrees with it: schema, operator limits, flags, registration, scaffold, README, the sandbox's failures", () => {
    expect(disagreements(LIMITS)).toEqual([]);
  });

  it("the hook file, the operator file, `hookbox schema` and `hookbox new` are built from its views", () => {
    const hook = hookFileSchema.parse({ id: "x", events: ["PreToolUse"], handler: { code: "export default () => {}" } });
    expect(hook.limits).toEqual(byLimit(LIMITS, (d) => d.default));
    const operator = operatorFileSchema.parse({});
    expect(operator.ceilings.community_limits).toEqual(communityLimitsOf(LIMITS));
    for (const d of LIMITS) {
      expect(operatorFileSchema.safeParse({ hooks: { x: { limits: { [d.yaml]: d.max + 1 } } } }).success).toBe(false);
      expect(operatorFileSchema.safeParse({ ceilings: { limits: { [d.yaml]: d.min } } }).success).toBe(true);
    }
    const json = jsonSchemaOf("hook") as { properties: { limits: { properties: Record<string, Record<string, unknown>> } } };
    const properties = json.properties.limits.properties;
    expect(Object.keys(properties)).toEqual(LIMITS.map((d) => d.yaml));
    for (const d of LIMITS) expect(properties[d.yaml]).toMatchObject({ type: "integer", minimum: d.min, maximum: d.max, default: d.default });
    const created = parseYaml(scaffold("new-hook", "PreToolUse")["hook.yaml"] as string) as { limits: Record<string, number> };
    expect(created.limits).toEqual(Object.fromEntries(LIMITS.flatMap((d) => (d.scaffold === undefined ? [] : [[d.yaml, d.scaffold]]))));
  });

  it("registration shows the limits a hook runs under, lowered by the operator, each in its unit", () => {
    const written = byLimit(LIMITS, (d) => Math.min(d.max, d.default * 2 || 1));
    const lowered = byLimit(LIMITS, (d) => d.min);
    const file = hookFileSchema.parse({ id: "x", events: ["PreToolUse"], handler: { code: "export default () => {}" }, limits: written });
    for (const [operator, expected] of [
      [operatorFileSchema.parse({}), written],
      [operatorFileSchema.parse({ ceilings: { limits: lowered } }), lowered],
    ] as const) {
      const resolved = resolveHook(file, { file: "/hooks/x/hook.yaml", origin: "dir" }, operator);
      if (!resolved.ok) throw new Error(resolved.message);
      const entry = { definition: resolved.hook, grants: { summary: {} }, review: { lines: [] } } as unknown as RegistryEntry;
      const shown = registration(entry);
      expect(hookRegistrationSchema.parse(shown)).toEqual(shown);
      expect("limits" in shown && shown.limits).toEqual(expected);
    }
  });
});

describe("a new row shows up in every derived view without another edit", () => {
  const row: LimitDescriptor = {
    yaml: "file_reads",
    sandbox: "fileReads",
    unit: "calls",
    scale: 1,
    min: 0,
    max: 500,
    default: 50,
    code: "sandbox_host_calls",
    enforcedBy: "the bridge",
    description: "files read per invocation",
    community: 20,
    scaffold: 10,
  };
  const extended: LimitsTable = [...LIMITS, row];

  it("schema, operator limits, community_limits, flags, registration and scaffold all carry it", () => {
    expect(limitsSchemaOf(extended).parse({})).toMatchObject({ file_reads: 50 });
    expect(limitsSchemaOf(extended).safeParse({ file_reads: 501 }).error?.issues[0]?.message).toBe("must be at most 500 calls");
    expect(limitsOverrideSchemaOf(extended).parse({ file_reads: 3 })).toEqual({ file_reads: 3 });
    expect(communityLimitsOf(extended)).toMatchObject({ file_reads: 20 });
    const option = addLimitFlags(new Command("run"), extended).options.find((o) => o.long === "--file-reads");
    expect(option?.description).toBe("limits.file_reads: 0–500 (default 50)");
    expect(limitsFromFlags({ fileReads: "7" }, extended)).toMatchObject({ fileReads: 7 });
    expect(() => limitsFromFlags({ fileReads: "501" }, extended)).toThrow("--file-reads must be a whole number from 0 to 500, got 501");
    expect(Object.keys(limitsWireSchemaOf(extended).shape)).toContain("file_reads");
    expect(inYamlUnits({ ...DEFAULT_LIMITS, fileReads: 9 } as SandboxLimits, extended)).toMatchObject({ file_reads: 9 });
    expect(scaffoldLimits(extended)).toBe("{ cpu_ms: 50, memory_mb: 16, timeout_ms: 2000, file_reads: 10 }");
  });

  it("what is not derived is caught: README's row and the sandbox that must enforce it", () => {
    expect(disagreements(extended)).toEqual([
      "file_reads: no row in README's limits table",
      "file_reads: README does not name --file-reads",
      "file_reads: the sandbox has no failure for it",
    ]);
  });
});
