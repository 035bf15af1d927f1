import { envKey } from "../grants/keys.ts";
import { judge, yamlOf, type Relation } from "../review/judge.ts";
import type { GrantReview, ReviewContext } from "../review/types.ts";
import type { EnvPolicy } from "./policy.ts";
import { looksSecret } from "../../core/text/secrets.ts";

const prefixOf = (rule: string): string | undefined => (rule.endsWith("*") ? rule.slice(0, -1) : undefined);

function relate(rule: string, grant: string): Relation {
  const rulePrefix = prefixOf(rule);
  const grantPrefix = prefixOf(grant);
  if (rule === grant) return "covers";
  if (rulePrefix !== undefined && (grantPrefix ?? grant).startsWith(rulePrefix)) return "covers";
  if (grantPrefix !== undefined && (rulePrefix ?? rule).startsWith(grantPrefix)) return "overlaps";
  return undefined;
}

export function reviewEnv(policy: EnvPolicy, ctx: ReviewContext): GrantReview[] {
  return policy.declared.map((name) => {
    const list = (rules: readonly string[]) => ({
      rules,
      relate: (rule: unknown) => relate(rule as string, name),
      show: (rule: unknown) => rule as string,
    });
    const prefix = prefixOf(name);
    const verdict = judge({
      kind: "env",
      hookId: ctx.hookId,
      yaml: yamlOf([name]),
      deny: list(policy.deny),
      approval: policy.approval && list(policy.approval),
      ceiling: policy.ceiling && list(policy.ceiling),
      defaultCeiling: () => {
        if (looksSecret(prefix ?? name))
          return { status: "refused", reason: `${name} looks like a secret, which a hook gets only when the operator approves it` };
        return prefix === undefined
          ? undefined
          : { status: "capped", reason: `names under ${name} that look like secrets (…_TOKEN, …_KEY …) are left out` };
      },
    });
    return {
      kind: "env",
      grant: envKey(name),
      words: prefix === undefined ? `read your environment variable ${name}` : `read your environment variables starting with ${prefix}`,
      ...verdict,
    };
  });
}
