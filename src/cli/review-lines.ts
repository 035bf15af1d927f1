import { formatReview, type GrantReport } from "../capabilities/index.ts";
import type { LoadedHook } from "../registry/load.ts";

/** A hook's effective grants as lines of text: the same in add, list, validate and doctor. */
export function reviewLines(report: GrantReport, indent = ""): string[] {
  const lines = report.lines.map((line) => `${indent}${formatReview(line)}`);
  if (!report.untrusted) return lines;
  const head = `${indent}UNTRUSTED: this project's hooks run without any grant until you run \`hookbox trust\` in ${report.untrusted.project}${lines.length > 0 ? "; trusted, it would get:" : ""}`;
  return [head, ...lines.map((line) => `  ${line}`)];
}

/** The grants of a hook that it will not fully get (capped, refused, or all of them while untrusted). */
export function withheldGrants(hook: LoadedHook): string[] {
  const lines = hook.review.untrusted ? hook.review.lines : hook.review.lines.filter((line) => line.status !== "granted");
  return lines.length === 0 ? [] : reviewLines({ ...hook.review, lines });
}
