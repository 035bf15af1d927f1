import { BUDGET_KEYS, DEFAULT_BUDGET, type BudgetKey, type LlmEndpointConfig, type LlmGrantConfig } from "./schema.ts";
import { decide, listLayer, type Layer, type Verdict } from "../grants/layers.ts";
import type { GrantSources } from "../grants/sources.ts";

/** A grant with its budgets (those it did not set are undefined: the layer says nothing about them). */
export interface LlmGrant {
  readonly endpoint: string;
  readonly budget: Partial<Record<BudgetKey, number>>;
}

/**
 * `llm`: the operator's model endpoints a hook may ask (hook.llm.complete, prompt hooks). An
 * endpoint the operator configured is the operator's own hooks' to use; a project's or a
 * package's hook needs `hooks.<id>.permissions.llm` or `ceilings.permissions.llm` (its prompts
 * carry what the agent is doing, and its tokens are the operator's).
 */
export interface LlmPolicy {
  readonly declared: readonly LlmGrant[];
  readonly approval: readonly LlmGrant[] | undefined;
  readonly ceiling: readonly LlmGrant[] | undefined;
  readonly operatorOwn: boolean;
  /** The operator's endpoints when the hook was loaded (hookbox.yaml `llm:`). */
  readonly endpoints: Readonly<Record<string, LlmEndpointConfig>>;
}

export type Budget = Readonly<Record<BudgetKey, number>>;

export function toGrants(raw: readonly LlmGrantConfig[] | undefined): LlmGrant[] | undefined {
  if (raw === undefined) return undefined;
  return raw.map((grant) => {
    if (typeof grant === "string") return { endpoint: grant, budget: {} };
    const { endpoint, ...budget } = grant;
    return { endpoint, budget };
  });
}

export function parseLlmPolicy(sources: GrantSources, endpoints: Readonly<Record<string, LlmEndpointConfig>>): LlmPolicy {
  return {
    declared: toGrants(sources.declared.llm) ?? [],
    approval: toGrants(sources.approval?.llm),
    ceiling: toGrants(sources.ceiling?.llm),
    operatorOwn: sources.operatorOwn,
    endpoints,
  };
}

const nameLayer = (grants: readonly LlmGrant[]): Layer<string> =>
  listLayer(
    grants,
    (grant, name) => grant.endpoint === name,
    (grant) => grant.endpoint,
  );

export function llmVerdict(policy: LlmPolicy, endpoint: string): Verdict {
  return decide(
    {
      declared: nameLayer(policy.declared),
      approval: policy.approval === undefined ? undefined : nameLayer(policy.approval),
      ceiling: policy.ceiling === undefined ? undefined : nameLayer(policy.ceiling),
      defaultCeiling: {
        refuse: () =>
          policy.operatorOwn
            ? undefined
            : "a project's or a package's hook asks a model only with the operator's approval (its prompts carry what the agent is doing)",
      },
      deny: { match: () => undefined },
    },
    endpoint,
  );
}

/**
 * The budgets of calls to `endpoint`: for each, the lowest of what the endpoint allows (its own
 * or the defaults), the hook's grant, the operator's approval for the hook and the ceiling.
 */
export function budgetFor(policy: LlmPolicy, endpoint: string): Budget {
  const config = policy.endpoints[endpoint];
  const layers = [policy.declared, policy.approval, policy.ceiling].map((grants) => grants?.find((grant) => grant.endpoint === endpoint)?.budget);
  const budget = {} as Record<BudgetKey, number>;
  for (const key of BUDGET_KEYS) {
    let value = config?.[key] ?? DEFAULT_BUDGET[key];
    for (const layer of layers) if (layer?.[key] !== undefined) value = Math.min(value, layer[key]);
    budget[key] = value;
  }
  return budget;
}

/** The endpoint a call names, or the hook's first grant (a prompt hook names none). */
export function defaultEndpoint(policy: LlmPolicy): string | undefined {
  return policy.declared[0]?.endpoint;
}
