import { yamlScalar } from "../denied.ts";
import type { PermissionKind } from "../grants/sources.ts";
import type { ReviewStatus } from "./types.ts";

/** How one operator rule relates to one declared grant: all of it, some of it, or none. */
export type Relation = "covers" | "overlaps" | undefined;

export interface RuleList<R> {
  readonly rules: readonly R[];
  readonly relate: (rule: R) => Relation;
  readonly show: (rule: R) => string;
}

/** The operator's layers for one declared grant; `defaultCeiling` applies when no explicit ceiling or covering approval does. */
export interface GrantLayers {
  readonly kind: PermissionKind;
  readonly hookId: string;
  /** The grant as YAML under `permissions.<kind>`, for the approval to suggest. */
  readonly yaml: string;
  readonly deny: RuleList<unknown>;
  readonly approval: RuleList<unknown> | undefined;
  readonly ceiling: RuleList<unknown> | undefined;
  readonly defaultCeiling: () => { readonly status: "capped" | "refused"; readonly reason: string } | undefined;
}

export interface Judgement {
  readonly status: ReviewStatus;
  readonly why?: string;
  readonly allow?: string;
}

function strongest(list: RuleList<unknown>): { relation: Relation; rule?: string } {
  let overlap: string | undefined;
  for (const rule of list.rules) {
    const relation = list.relate(rule);
    if (relation === "covers") return { relation, rule: list.show(rule) };
    if (relation === "overlaps") overlap ??= list.show(rule);
  }
  return overlap === undefined ? { relation: undefined } : { relation: "overlaps", rule: overlap };
}

/**
 * The static counterpart of grants/layers.ts `decide`: the same layers in the same order (deny
 * wins; an explicit approval lifts the default ceiling, never an explicit one), applied to a
 * whole declared grant instead of one access.
 */
export function judge(layers: GrantLayers): Judgement {
  const { kind, hookId } = layers;
  const approve = `hookbox.yaml:  hooks: { ${hookId}: { permissions: { ${kind}: ${layers.yaml} } } }`;
  const cuts: { readonly why: string; readonly allow: string }[] = [];
  const denyAllow = `only the operator can, by removing it from deny.${kind}`;
  const deny = strongest(layers.deny);
  if (deny.relation === "covers")
    return { status: "refused", why: `hookbox.yaml deny.${kind} lists ${JSON.stringify(deny.rule)} (deny always wins)`, allow: denyAllow };
  if (deny.relation === "overlaps")
    cuts.push({ why: `except what hookbox.yaml deny.${kind} ${JSON.stringify(deny.rule)} refuses`, allow: denyAllow });
  let approved = false;
  if (layers.approval) {
    const approval = strongest(layers.approval);
    if (approval.relation === undefined)
      return {
        status: "refused",
        why: `not approved for this hook in hookbox.yaml (hooks.${hookId}.permissions.${kind})`,
        allow: `add to ${approve}`,
      };
    if (approval.relation === "overlaps")
      cuts.push({
        why: `only what hookbox.yaml hooks.${hookId}.permissions.${kind} approves (${JSON.stringify(approval.rule)})`,
        allow: `add to ${approve}`,
      });
    approved = true;
  }
  if (layers.ceiling) {
    const ceiling = strongest(layers.ceiling);
    if (ceiling.relation === undefined)
      return {
        status: "refused",
        why: `outside the operator's ceiling (hookbox.yaml ceilings.permissions.${kind})`,
        allow: `only the operator can, by widening ceilings.permissions.${kind}`,
      };
    if (ceiling.relation === "overlaps")
      cuts.push({
        why: `only what the operator's ceiling allows (ceilings.permissions.${kind} ${JSON.stringify(ceiling.rule)})`,
        allow: `only the operator can, by widening ceilings.permissions.${kind}`,
      });
  } else if (!approved) {
    const byDefault = layers.defaultCeiling();
    if (byDefault?.status === "refused")
      return {
        status: "refused",
        why: `refused by the default ${kind} ceiling: ${byDefault.reason}`,
        allow: `the operator can approve it for this hook in ${approve}`,
      };
    if (byDefault)
      cuts.push({ why: `capped by the default ${kind} ceiling: ${byDefault.reason}`, allow: `the operator can approve all of it in ${approve}` });
  }
  if (cuts.length === 0) return { status: "granted" };
  return { status: "capped", why: cuts.map((cut) => cut.why).join("; "), allow: [...new Set(cuts.map((cut) => cut.allow))].join("; and ") };
}

export function yamlOf(items: readonly string[]): string {
  return `[${items.map(yamlScalar).join(", ")}]`;
}
