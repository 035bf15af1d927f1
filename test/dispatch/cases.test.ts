import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { SandboxEngine } from "../../sandbox/index.ts";
import { formatDiagnostic } from "../../src/hooks/config/diagnostics.ts";
import { parseEvent } from "../../src/core/events/parse.ts";
import { dispatchEnv } from "../helpers/dispatch-env.ts";
import { createEngine } from "../helpers/sandbox.ts";

/**
 * Data-driven dispatcher cases (OPA style): each YAML case gives hooks (with inline handlers),
 * an optional operator file, and one or more events with the expected decision and runs.
 */
interface Step {
  readonly event: Record<string, unknown>;
  readonly expect: Record<string, unknown>;
  readonly fire?: string;
}
interface Case {
  readonly name: string;
  readonly hooks: Record<string, unknown>[];
  readonly files?: Record<string, string>;
  readonly operator?: Record<string, unknown>;
  readonly event?: Record<string, unknown>;
  readonly expect?: Record<string, unknown>;
  readonly steps?: Step[];
  readonly load_errors?: string[];
}

const dir = resolve(import.meta.dirname, "../cases");
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".yaml"))
  .sort();
const cases = files.flatMap((file) => (parse(readFileSync(resolve(dir, file), "utf8")) as Case[]).map((c) => ({ ...c, file })));

let engine: SandboxEngine;
beforeAll(async () => {
  engine = await createEngine();
});
afterAll(() => engine.dispose());

describe("dispatch cases", () => {
  it("has at least 40 cases", () => expect(cases.length).toBeGreaterThanOrEqual(40));

  for (const testCase of cases) {
    it(`${testCase.file}: ${testCase.name}`, async () => {
      const { registry, dispatcher } = await dispatchEnv(engine, { hooks: testCase.hooks, files: testCase.files, operator: testCase.operator });
      const problems = registry.current().diagnostics.map(formatDiagnostic);
      if (testCase.load_errors) {
        for (const expected of testCase.load_errors) expect(problems.join("\n")).toContain(expected);
        if (!testCase.event && !testCase.steps) return;
      } else {
        expect(problems).toEqual([]);
      }
      const steps: Step[] = testCase.steps ?? [
        { event: testCase.event as Record<string, unknown>, expect: testCase.expect as Record<string, unknown> },
      ];
      for (const step of steps) {
        const event = parseEvent({ session_id: "case", cwd: "/work/project", ...step.event });
        const outcome = step.fire ? await dispatcher.fire(step.fire, event) : await dispatcher.handle(event);
        if (!outcome) throw new Error(`no hook ${step.fire}`);
        const { runs, ...rest } = step.expect as { runs?: Record<string, unknown>[] } & Record<string, unknown>;
        expect(outcome.decision).toMatchObject(rest);
        if (runs) {
          expect(outcome.decision.runs.map((r) => r.hook_id)).toEqual(runs.map((r) => r.hook_id));
          runs.forEach((run, index) => {
            const actual = outcome.decision.runs[index] as unknown as Record<string, unknown>;
            for (const [key, value] of Object.entries(run)) {
              if (key === "reason_contains") expect(String(actual.reason)).toContain(String(value));
              else expect(actual[key], `${String(run.hook_id)}.${key}`).toEqual(value);
            }
          });
        }
      }
    });
  }
});
