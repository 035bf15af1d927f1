import { llmKey } from "../grants/keys.ts";
import { judge, yamlOf } from "../review/judge.ts";
import type { GrantReview, ReviewContext } from "../review/types.ts";
import { budgetFor, type LlmGrant, type LlmPolicy } from "./policy.ts";

/** Each endpoint a hook names: granted (with the budgets that apply), or refused with what would allow it. */
export function reviewLlm(policy: LlmPolicy, ctx: ReviewContext): GrantReview[] {
  return policy.declared.map((grant) => {
    const list = (grants: readonly LlmGrant[]) => ({
      rules: grants,
      relate: (rule: unknown) => ((rule as LlmGrant).endpoint === grant.endpoint ? ("covers" as const) : undefined),
      show: (rule: unknown) => (rule as LlmGrant).endpoint,
    });
    const verdict = judge({
      kind: "llm",
      hookId: ctx.hookId,
      yaml: yamlOf([grant.endpoint]),
      deny: list([]),
      approval: policy.approval && list(policy.approval),
      ceiling: policy.ceiling && list(policy.ceiling),
      defaultCeiling: () =>
        policy.operatorOwn
          ? undefined
          : { status: "refused", reason: "a project's or a package's hook asks a model only with the operator's approval" },
    });
    const config = Object.hasOwn(policy.endpoints, grant.endpoint) ? policy.endpoints[grant.endpoint] : undefined;
    const budget = budgetFor(policy, grant.endpoint);
    const where = config
      ? `${config.model} at ${config.endpoint} (${config.api})`
      : `the endpoint ${grant.endpoint}, which hookbox.yaml llm does not configure`;
    const words = `send prompts (with what it reads of the event) to ${where}; up to ${budget.max_tokens} tokens an answer, ${budget.tokens_per_run} a run, ${budget.tokens_per_day} a day, ${budget.timeout_ms} ms a call`;
    return { kind: "llm", grant: llmKey(grant.endpoint), words, ...verdict };
  });
}
