import type { PermissionKind } from "../grants/sources.ts";

export type ReviewStatus = "granted" | "capped" | "refused";

/**
 * One declared grant, reviewed against the operator file: what it lets the hook do, whether the
 * hook really gets it, and what would allow the rest. Computed from the parsed grants — the same
 * rules the capability checks enforce per access — never copied from the YAML.
 */
export interface GrantReview {
  readonly kind: PermissionKind;
  /** The grant as declared, on one line: also what `--allow` names ("read ${home}/.ssh/**"). */
  readonly grant: string;
  /** What it lets the hook do, in plain words. */
  readonly words: string;
  /** granted: all of it; capped: part of it (`why` says which part is cut); refused: none of it. */
  readonly status: ReviewStatus;
  readonly why?: string;
  /** What would allow all of it. */
  readonly allow?: string;
}

/** A hook's review: one line per declared grant; `untrusted` when it runs without any of them (a project not trusted yet). */
export interface GrantReport {
  readonly lines: readonly GrantReview[];
  readonly untrusted?: { readonly project: string };
}

/** What reviewing needs beyond the grants: whose they are (for the YAML to suggest) and where `${home}` is. */
export interface ReviewContext {
  readonly hookId: string;
  readonly home: string;
}
