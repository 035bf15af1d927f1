/**
 * The one decision rule of every permission kind: what the hook declares ∩ what the operator
 * approved for this hook ∩ the global ceiling (or, when the operator set none, the default
 * ceiling) − the global deny list. Deny always wins. Each layer is checked against the concrete
 * access (a path, a command line, a host), never intersected symbolically.
 */

/** A list of rules; `match` names the rule that matches the access, for messages. */
export interface Layer<A> {
  match(access: A): string | undefined;
}

/** What applies when the operator set no ceiling for a kind: a reason to refuse, or undefined. */
export interface DefaultCeiling<A> {
  refuse(access: A): string | undefined;
}

export interface KindLayers<A> {
  readonly declared: Layer<A>;
  /** `hooks.<id>.permissions.<kind>` in hookbox.yaml, when the operator wrote it. */
  readonly approval: Layer<A> | undefined;
  /** `ceilings.permissions.<kind>` in hookbox.yaml, when the operator wrote it. */
  readonly ceiling: Layer<A> | undefined;
  readonly defaultCeiling: DefaultCeiling<A>;
  /** `deny.<kind>` in hookbox.yaml. */
  readonly deny: Layer<A>;
}

export type OperatorBlock = { readonly by: "approval" } | { readonly by: "ceiling" } | { readonly by: "default"; readonly reason: string };

export type Verdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly by: "deny"; readonly rule: string }
  | { readonly ok: false; readonly by: "declared"; readonly operator: OperatorBlock | undefined }
  | ({ readonly ok: false } & OperatorBlock);

export function decide<A>(layers: KindLayers<A>, access: A): Verdict {
  const denyRule = layers.deny.match(access);
  if (denyRule !== undefined) return { ok: false, by: "deny", rule: denyRule };
  const operator = operatorBlock(layers, access);
  if (layers.declared.match(access) === undefined) return { ok: false, by: "declared", operator };
  return operator ? { ok: false, ...operator } : { ok: true };
}

function operatorBlock<A>(layers: KindLayers<A>, access: A): OperatorBlock | undefined {
  const approved = layers.approval?.match(access);
  if (layers.approval && approved === undefined) return { by: "approval" };
  if (layers.ceiling) return layers.ceiling.match(access) === undefined ? { by: "ceiling" } : undefined;
  // An explicit per-hook approval is the operator's word: it lifts the default ceiling, not an explicit one.
  if (approved !== undefined) return undefined;
  const reason = layers.defaultCeiling.refuse(access);
  return reason === undefined ? undefined : { by: "default", reason };
}

/** A layer over a list of rules, each with its own matcher. */
export function listLayer<R, A>(rules: readonly R[], matches: (rule: R, access: A) => boolean, show: (rule: R) => string): Layer<A> {
  return {
    match(access) {
      const rule = rules.find((candidate) => matches(candidate, access));
      return rule === undefined ? undefined : show(rule);
    },
  };
}

export const NO_DEFAULT_LIMIT: DefaultCeiling<unknown> = { refuse: () => undefined };
