import { modifyKey } from "../grants/keys.ts";
import type { GrantReview, ReviewContext } from "../review/types.ts";
import { modifyVerdict, type ModifyPolicy } from "./index.ts";

/** Each declared `modify` field: granted, or refused with what would allow it (the operator only). */
export function reviewModify(policy: ModifyPolicy, ctx: ReviewContext): GrantReview[] {
  return policy.declared.map((field) => {
    const base = {
      kind: "modify" as const,
      grant: modifyKey(field),
      words:
        field === "tool_response"
          ? "rewrite a tool's output before the guards check it (what the model then sees)"
          : `rewrite ${field} of the event before the guards check it (what the agent then runs)`,
    };
    const verdict = modifyVerdict(policy, field);
    if (verdict.ok) return { ...base, status: "granted" as const };
    const why =
      verdict.by === "default"
        ? verdict.reason
        : verdict.by === "approval"
          ? `the operator's approval for this hook does not list it (hookbox.yaml hooks.${ctx.hookId}.permissions.modify)`
          : verdict.by === "ceiling"
            ? "the operator's ceiling does not allow it (hookbox.yaml ceilings.permissions.modify)"
            : "not allowed";
    return {
      ...base,
      status: "refused" as const,
      why,
      allow: `the operator adds it in hookbox.yaml: hooks: { ${ctx.hookId}: { permissions: { modify: [${field}] } } }`,
    };
  });
}
