import type { DefaultCeiling, KindLayers } from "../grants/layers.ts";
import { decide, listLayer } from "../grants/layers.ts";
import type { GrantSources } from "../grants/sources.ts";
import { looksSecret } from "../../core/text/secrets.ts";

/** Names or `PREFIX_*` patterns, per layer. */
export interface EnvPolicy {
  readonly declared: readonly string[];
  readonly approval: readonly string[] | undefined;
  readonly ceiling: readonly string[] | undefined;
  readonly deny: readonly string[];
}

export function parseEnvPolicy(sources: GrantSources): EnvPolicy {
  return { declared: sources.declared.env, approval: sources.approval?.env, ceiling: sources.ceiling?.env, deny: sources.deny.env };
}

export function nameMatches(rule: string, name: string): boolean {
  return rule.endsWith("*") ? name.startsWith(rule.slice(0, -1)) : rule === name;
}

const SECRET_CEILING: DefaultCeiling<string> = {
  refuse: (name) =>
    looksSecret(name)
      ? `${name} looks like a secret (*_KEY, *_TOKEN, *_SECRET, *PASSWORD*, ANTHROPIC_*, AWS_* …), which a hook gets only when the operator approves it`
      : undefined,
};

/** The env layers; `declared` can be replaced (a run grant's own env list is declared for its command). */
export function envLayers(policy: EnvPolicy, declared: readonly string[] = policy.declared): KindLayers<string> {
  const layer = (rules: readonly string[]) => listLayer(rules, nameMatches, (rule) => rule);
  return {
    declared: layer(declared),
    approval: policy.approval && layer(policy.approval),
    ceiling: policy.ceiling && layer(policy.ceiling),
    defaultCeiling: SECRET_CEILING,
    deny: layer(policy.deny),
  };
}

export function envAllowed(policy: EnvPolicy, name: string, declared?: readonly string[]): boolean {
  return decide(envLayers(policy, declared), name).ok;
}
