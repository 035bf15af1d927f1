import { stepSkipTests, type ConditionConfig, type SkipTest, type StepConfig } from "../../hooks/config/steps-schema.ts";
import { compileRegex } from "../../core/text/safe-regex.ts";
import { render, type TemplateScope } from "./template.ts";
import type { StepResult } from "./run.ts";

/** What each short circuit tests in a step's result (the seed engine's _should_skip_llm). */
const SKIP_TESTS: Readonly<Record<SkipTest, { holds: (result: StepResult) => boolean; says: string }>> = {
  exit_zero: { holds: (result) => result.exit_code === 0, says: "exit code 0" },
  // The seed looks at stdout and content; a diff or a body is a step's output too.
  empty: {
    holds: (result) =>
      ["stdout", "content", "body", "diff"].every((field) => typeof result[field] !== "string" || (result[field] as string).trim() === "") &&
      result.error === undefined,
    says: "its output is empty",
  },
  status_ok: {
    holds: (result) => typeof result.status_code === "number" && result.status_code >= 200 && result.status_code < 300,
    says: "HTTP status 2xx",
  },
};

/**
 * Why the result should not be produced, or undefined: the first step whose short circuit holds
 * ("step_0: exit code 0 (skip_if: exit_zero)"), then the first `skip_if` condition that holds,
 * then the first `when` condition that does not.
 */
export function skipReason(
  steps: readonly StepConfig[],
  results: readonly StepResult[],
  skipIf: readonly ConditionConfig[],
  when: readonly ConditionConfig[],
  scope: TemplateScope,
): string | undefined {
  for (const [index, step] of steps.entries()) {
    const result = results[index];
    if (!result) continue;
    const test = stepSkipTests(step).find((name) => SKIP_TESTS[name].holds(result));
    if (test) return `step_${index}: ${SKIP_TESTS[test].says} (skip_if: ${test})`;
  }
  for (const [index, condition] of skipIf.entries()) {
    if (holds(condition, scope)) return `skip_if[${index}] holds: ${describe(condition, scope)}`;
  }
  for (const [index, condition] of when.entries()) {
    if (!holds(condition, scope)) return `when[${index}] does not hold: ${describe(condition, scope)}`;
  }
  return undefined;
}

export function holds(condition: ConditionConfig, scope: TemplateScope): boolean {
  const value = render(condition.value, scope);
  if (condition.equals !== undefined) return value === String(condition.equals);
  if (condition.not_equals !== undefined) return value !== String(condition.not_equals);
  if (condition.empty !== undefined) return (value.trim() === "") === condition.empty;
  const regex = compileRegex(condition.matches as string);
  // Compiled when the hook loaded: a pattern that did not compile never gets here.
  return regex.ok && regex.regex.test(value);
}

function describe(condition: ConditionConfig, scope: TemplateScope): string {
  const shown = JSON.stringify(render(condition.value, scope).slice(0, 120));
  if (condition.equals !== undefined) return `${condition.value} is ${shown}, equals ${JSON.stringify(condition.equals)}`;
  if (condition.not_equals !== undefined) return `${condition.value} is ${shown}, not_equals ${JSON.stringify(condition.not_equals)}`;
  if (condition.empty !== undefined) return `${condition.value} is ${shown}, empty: ${condition.empty}`;
  return `${condition.value} is ${shown}, matches ${JSON.stringify(condition.matches)}`;
}
