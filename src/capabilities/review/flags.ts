import type { FlagPolicy } from "../grants/flag.ts";
import type { GrantReview, ReviewContext } from "./types.ts";

const WORDS = {
  inject_context: "add text to the model's context (what the agent reads next)",
  store: "keep data between runs (its own key-value store, at most 1 MiB)",
  notify: "send messages to the operator's notification sinks (hookbox.yaml notify.sinks)",
} as const;

/** inject_context, store and notify: declared, and not turned off by the operator for this hook or for all. */
export function reviewFlag(kind: keyof typeof WORDS, policy: FlagPolicy, ctx: ReviewContext): GrantReview[] {
  if (!policy.declared) return [];
  const base = { kind, grant: kind, words: WORDS[kind] };
  if (policy.approval === false)
    return [
      {
        ...base,
        status: "refused",
        why: `the operator turned it off for this hook (hookbox.yaml hooks.${ctx.hookId}.permissions.${kind}: false)`,
        allow: `only the operator can, in hookbox.yaml`,
      },
    ];
  if (policy.ceiling === false)
    return [
      {
        ...base,
        status: "refused",
        why: `the operator turned it off for every hook (hookbox.yaml ceilings.permissions.${kind}: false)`,
        allow: "only the operator can, in hookbox.yaml",
      },
    ];
  return [{ ...base, status: "granted" }];
}
