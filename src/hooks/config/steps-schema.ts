import { z } from "zod";
import { compileRegex } from "../../core/text/safe-regex.ts";

/**
 * Declarative hooks (the seed engine's context steps): `steps` gather context through the hook's
 * own capabilities, `skip_if`/`when` decide from their results, and `then` is the result, with
 * `{{event.x}}` and `{{step_N.field}}` placeholders. Every string of a step is a template.
 */

/** A string that may hold {{…}} placeholders. */
const template = (max: number) => z.string().max(max);

/** The seed engine's three short circuits, by the name of what they test. */
export const SKIP_TESTS = ["exit_zero", "empty", "status_ok"] as const;
export type SkipTest = (typeof SKIP_TESTS)[number];

const common = {
  /** Skip the hook's result (the run is recorded `skipped` with the reason) when this step's result passes the test. */
  skip_if: z.union([z.enum(SKIP_TESTS), z.array(z.enum(SKIP_TESTS)).min(1).max(3)]).optional(),
  /** The seed engine's spellings of skip_if. */
  skip_llm_if_exit_zero: z.boolean().optional(),
  skip_llm_if_empty: z.boolean().optional(),
  skip_llm_if_status_ok: z.boolean().optional(),
};

const seconds = (fallback: number, max: number) => z.number().int().min(1).max(max).default(fallback);

/** Step kinds, each backed by the capability a handler would call (and needing the same grant). */
const stepKinds = [
  z.object({ type: z.literal("shell"), command: template(64 * 1024).min(1), timeout: seconds(60, 900), ...common }).strict(),
  z
    .object({ type: z.literal("read_file"), path: template(4096).min(1), max_lines: z.number().int().min(1).max(100_000).default(500), ...common })
    .strict(),
  z.object({ type: z.literal("http"), url: template(8192).min(1), timeout: seconds(30, 30), ...common }).strict(),
  z.object({ type: z.literal("git_diff"), base_branch: template(256).min(1).default("main"), ...common }).strict(),
  z
    .object({
      type: z.literal("run_tests"),
      command: template(64 * 1024)
        .min(1)
        .default("pytest"),
      timeout: seconds(300, 900),
      framework: z.enum(["auto", "pytest", "jest", "vitest"]).default("auto"),
      ...common,
    })
    .strict(),
  z
    .object({
      type: z.literal("list_files"),
      path: template(4096).min(1).default("."),
      recursive: z.boolean().default(false),
      extensions: z.array(z.string().min(1).max(32)).max(64).optional(),
      max_files: z.number().int().min(1).max(10_000).default(200),
      hidden: z.boolean().default(false),
      ...common,
    })
    .strict(),
  z.object({ type: z.literal("file_diff"), path: template(4096).min(1), ...common }).strict(),
] as const;

/** The seed's steps that need what Hookbox has not (its database, memory index, task queue): refused with the reason. */
const UNSUPPORTED = {
  db_query: "Hookbox has no application database; read what you need with read_file or http",
  memory_search: "Hookbox has no memory index",
  create_task: "Hookbox has no task queue; a hook's result (user_message, follow_up_actions) reaches the agent instead",
} as const;

const unsupportedStep = z
  .object({ type: z.enum(Object.keys(UNSUPPORTED) as [keyof typeof UNSUPPORTED, ...(keyof typeof UNSUPPORTED)[]]) })
  .loose()
  .superRefine((step, ctx) =>
    ctx.addIssue({ code: "custom", path: ["type"], message: `step type ${step.type} is not supported: ${UNSUPPORTED[step.type]}` }),
  );

/** Which short circuits make sense for which step (a read_file has no exit code). */
const SKIPS_FOR: Readonly<Record<string, readonly SkipTest[]>> = {
  shell: ["exit_zero", "empty"],
  read_file: ["empty"],
  http: ["status_ok", "empty"],
  git_diff: ["exit_zero", "empty"],
  run_tests: ["exit_zero", "empty"],
  list_files: ["empty"],
  file_diff: ["exit_zero", "empty"],
};

export const stepSchema = z.discriminatedUnion("type", [...stepKinds, unsupportedStep]).superRefine((step, ctx) => {
  if (!("skip_if" in step || "skip_llm_if_exit_zero" in step || "skip_llm_if_empty" in step || "skip_llm_if_status_ok" in step)) return;
  const applicable = SKIPS_FOR[step.type] ?? [];
  for (const test of stepSkipTests(step as StepConfig)) {
    if (!applicable.includes(test))
      ctx.addIssue({
        code: "custom",
        path: ["skip_if"],
        message: `${test} does not apply to a ${step.type} step (it can skip on: ${applicable.join(", ")})`,
      });
  }
});

export type StepConfig = z.output<(typeof stepKinds)[number]>;

/** The skip tests a step asks for, in either spelling. */
export function stepSkipTests(step: StepConfig): SkipTest[] {
  const listed = step.skip_if === undefined ? [] : Array.isArray(step.skip_if) ? step.skip_if : [step.skip_if];
  const seed: SkipTest[] = [
    ...(step.skip_llm_if_exit_zero ? ["exit_zero" as const] : []),
    ...(step.skip_llm_if_empty ? ["empty" as const] : []),
    ...(step.skip_llm_if_status_ok ? ["status_ok" as const] : []),
  ];
  return [...new Set([...listed, ...seed])];
}

/** A test over one rendered value: exactly one of equals, not_equals, matches, empty. */
export const conditionSchema = z
  .object({
    value: template(4096),
    equals: z.union([z.string().max(4096), z.number(), z.boolean()]).optional(),
    not_equals: z.union([z.string().max(4096), z.number(), z.boolean()]).optional(),
    matches: z
      .string()
      .max(1024)
      .superRefine((pattern, ctx) => {
        const compiled = compileRegex(pattern);
        if (!compiled.ok) ctx.addIssue({ code: "custom", message: compiled.message });
      })
      .optional(),
    empty: z.boolean().optional(),
  })
  .strict()
  .superRefine((condition, ctx) => {
    const tests = (["equals", "not_equals", "matches", "empty"] as const).filter((key) => condition[key] !== undefined);
    if (tests.length !== 1)
      ctx.addIssue({
        code: "custom",
        message: `give exactly one test of value: equals, not_equals, matches or empty${tests.length > 1 ? ` (found ${tests.join(", ")})` : ""}`,
      });
  });

export type ConditionConfig = z.output<typeof conditionSchema>;

/**
 * What a declarative hook returns: a small part of a handler's result, each string a template.
 * `notify` sends its text to the operator's notification sink (permissions.notify).
 */
export const resultTemplateSchema = z
  .object({
    action: z.enum(["continue", "deny", "inject_context", "ask_user"]).optional(),
    reason: template(20_000).optional(),
    context_injection: template(40_000).optional(),
    context_injection_role: z.enum(["system", "user", "assistant"]).optional(),
    user_message: template(20_000).optional(),
    user_message_level: z.enum(["info", "warning", "error"]).optional(),
    messages_to_user: z.array(template(20_000)).max(32).optional(),
    logs: z.array(template(4096)).max(32).optional(),
    notify: template(4096).optional(),
  })
  .strict();

export type ResultTemplate = z.output<typeof resultTemplateSchema>;
