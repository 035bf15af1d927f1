// src/capabilities/review owns the review of a hook's effective grants, one line per grant; it must not import above src/capabilities.
import { reviewEnv } from "../env/review.ts";
import { reviewNet } from "../network/review.ts";
import { reviewRead } from "../read/review.ts";
import type { Policies } from "../registry.ts";
import { reviewRun } from "../run/review.ts";
import { reviewFlag } from "./flags.ts";
import { reviewModify } from "../modify/review.ts";
import { reviewLlm } from "../llm/review.ts";
import type { GrantReview, ReviewContext } from "./types.ts";

export type { GrantReport, GrantReview, ReviewStatus } from "./types.ts";

/**
 * THE review of a hook's grants: what `add`, `list`, `validate` and `doctor` show. One line per
 * declared grant, in the order grantKeys lists them.
 */
export function reviewPolicies(policies: Policies, ctx: ReviewContext): GrantReview[] {
  return [
    ...reviewRead(policies.read, ctx),
    ...reviewRun(policies.run, policies.env, ctx),
    ...reviewEnv(policies.env, ctx),
    ...reviewNet(policies.net, ctx),
    ...reviewFlag("inject_context", policies.inject_context, ctx),
    ...reviewFlag("store", policies.store, ctx),
    ...reviewModify(policies.modify, ctx),
    ...reviewFlag("notify", policies.notify.flag, ctx),
    ...reviewLlm(policies.llm, ctx),
  ];
}

/** A review line as text: "refused  read ${home}/.ssh/** — refused by the default read ceiling: …; to allow it: …". */
export function formatReview(line: GrantReview): string {
  const status = line.status === "granted" ? "granted" : line.status === "capped" ? "capped " : "REFUSED";
  const detail = line.why ? ` — ${line.why}${line.allow ? `; to allow it: ${line.allow}` : ""}` : "";
  return `${status}  ${line.grant}: ${line.words}${detail}`;
}
