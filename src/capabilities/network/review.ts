import { netKey } from "../grants/keys.ts";
import { judge, yamlOf, type Relation } from "../review/judge.ts";
import type { GrantReview, ReviewContext } from "../review/types.ts";
import type { HostRule, NetPolicy } from "./policy.ts";

function hostCovers(rule: HostRule, grant: HostRule): boolean {
  if (!rule.wildcard) return !grant.wildcard && rule.host === grant.host;
  return grant.host.endsWith(`.${rule.host}`) || (grant.wildcard && grant.host === rule.host);
}

function relate(rule: HostRule, grant: HostRule): Relation {
  const portsMeet = rule.port === undefined || grant.port === undefined || rule.port === grant.port;
  if (!portsMeet) return undefined;
  if (hostCovers(rule, grant) && (rule.port === undefined || rule.port === grant.port)) return "covers";
  return hostCovers(rule, grant) || hostCovers(grant, rule) ? "overlaps" : undefined;
}

function words(rule: HostRule): string {
  const port = rule.port === undefined ? "any port" : `port ${rule.port}`;
  return rule.wildcard ? `connect to any subdomain of ${rule.host} (${port})` : `connect to ${rule.host} (${port})`;
}

export function reviewNet(policy: NetPolicy, ctx: ReviewContext): GrantReview[] {
  return policy.declared.map((grant) => {
    const list = (rules: readonly HostRule[]) => ({
      rules,
      relate: (rule: unknown) => relate(rule as HostRule, grant),
      show: (rule: unknown) => (rule as HostRule).raw,
    });
    const verdict = judge({
      kind: "net",
      hookId: ctx.hookId,
      yaml: yamlOf([grant.raw]),
      deny: list(policy.deny),
      approval: policy.approval && list(policy.approval),
      ceiling: policy.ceiling && list(policy.ceiling),
      defaultCeiling: () => ({ status: "refused", reason: "hooks have no network unless the operator approves a host (air-gapped by default)" }),
    });
    return { kind: "net", grant: netKey(grant.raw), words: words(grant), ...verdict };
  });
}
