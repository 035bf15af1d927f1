import { decide, NO_DEFAULT_LIMIT, type Verdict } from "./layers.ts";
import type { GrantSources } from "./sources.ts";

/** A yes/no permission (inject_context, store, notify): declared, and not refused by the operator. */
export interface FlagPolicy {
  readonly declared: boolean;
  readonly approval: boolean | undefined;
  readonly ceiling: boolean | undefined;
}

export function parseFlagPolicy(sources: GrantSources, kind: "inject_context" | "store" | "notify"): FlagPolicy {
  return { declared: sources.declared[kind], approval: sources.approval?.[kind], ceiling: sources.ceiling?.[kind] };
}

export function flagVerdict(policy: FlagPolicy): Verdict {
  const layer = (value: boolean) => ({ match: () => (value ? "true" : undefined) });
  return decide(
    {
      declared: layer(policy.declared),
      approval: policy.approval === undefined ? undefined : layer(policy.approval),
      ceiling: policy.ceiling === undefined ? undefined : layer(policy.ceiling),
      defaultCeiling: NO_DEFAULT_LIMIT,
      deny: { match: () => undefined },
    },
    undefined,
  );
}
