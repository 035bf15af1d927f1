import { callSummary, type CallSummary, type ReplayedEvent } from "./engine.ts";

/** One side's answer to a call, in a comparison. */
export interface SideAnswer {
  /** allow, deny, ask — or "rewrite" for an allow that rewrote the input. */
  readonly decision: "allow" | "deny" | "ask" | "rewrite";
  readonly by: string | null;
  readonly reason: string | null;
}

export interface Difference extends CallSummary {
  readonly a: SideAnswer;
  readonly b: SideAnswer;
  /** newly blocked (b denies or asks where a let it through), newly allowed, or otherwise changed. */
  readonly change: "newly blocked" | "newly allowed" | "changed";
}

/** `hookbox replay --compare A B --json`: only the calls the two hook sets decide differently. */
export interface ReplayComparison {
  readonly v: 1;
  readonly a: string;
  readonly b: string;
  readonly events: number;
  readonly differences: readonly Difference[];
  readonly newly_blocked: number;
  readonly newly_allowed: number;
}

/**
 * The calls two hook sets decide differently, over the same recorded calls (replayed in the same
 * order by each): what a package update, a stricter guard or a new operator file would change.
 * Two answers differ when their decision differs, or one rewrites the input and the other does not.
 */
export function compareReplays(
  labels: { readonly a: string; readonly b: string },
  a: readonly ReplayedEvent[],
  b: readonly ReplayedEvent[],
): ReplayComparison {
  const differences: Difference[] = [];
  a.forEach((left, index) => {
    const right = b[index];
    if (!right) return;
    const sideA = answerOf(left);
    const sideB = answerOf(right);
    if (sideA.decision === sideB.decision) return;
    differences.push({
      ...callSummary(left),
      a: sideA,
      b: sideB,
      change: blocks(sideB) && !blocks(sideA) ? "newly blocked" : blocks(sideA) && !blocks(sideB) ? "newly allowed" : "changed",
    });
  });
  return {
    v: 1,
    a: labels.a,
    b: labels.b,
    events: a.length,
    differences,
    newly_blocked: differences.filter((d) => d.change === "newly blocked").length,
    newly_allowed: differences.filter((d) => d.change === "newly allowed").length,
  };
}

function answerOf(event: ReplayedEvent): SideAnswer {
  return {
    decision: event.rewritten ? "rewrite" : event.decision,
    by: event.decidedBy ?? null,
    reason: event.reason ?? null,
  };
}

function blocks(answer: SideAnswer): boolean {
  return answer.decision === "deny" || answer.decision === "ask";
}
