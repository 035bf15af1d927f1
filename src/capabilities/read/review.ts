import { readKey } from "../grants/keys.ts";
import { judge, yamlOf, type Relation } from "../review/judge.ts";
import type { GrantReview, ReviewContext } from "../review/types.ts";
import type { PathPattern } from "../paths/patterns.ts";
import { DEFAULT_READ_CEILING, DEFAULT_READ_PATTERNS, type ReadPolicy } from "./policy.ts";

/**
 * A path pattern seen from where it starts: the workspace (unknown until an event names it) or
 * the root, with `${home}` expanded. Relations between patterns are judged on these: exact for the
 * shapes grants take (`<dir>/**`, a file, `<dir>/*.ext`), conservative for the rest.
 */
interface Rooted {
  readonly root: "workspace" | "/";
  readonly literal: readonly string[];
  readonly glob: string;
  readonly raw: string;
}

function rooted(pattern: PathPattern, home: string): Rooted {
  if (pattern.variable === "workspace") return { root: "workspace", literal: pattern.literal, glob: pattern.glob, raw: pattern.raw };
  const base = pattern.variable === "home" ? home.split("/").filter(Boolean) : [];
  return { root: "/", literal: [...base, ...pattern.literal], glob: pattern.glob, raw: pattern.raw };
}

function startsWith(longer: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= longer.length && prefix.every((segment, i) => longer[i] === segment);
}

function covers(rule: Rooted, grant: Rooted): boolean {
  if (rule.root !== grant.root || !startsWith(grant.literal, rule.literal)) return false;
  if (rule.glob === "**") return true;
  return rule.literal.length === grant.literal.length && rule.glob === grant.glob;
}

function relate(rule: Rooted, grant: Rooted): Relation {
  if (covers(rule, grant)) return "covers";
  if (rule.root === grant.root && (startsWith(grant.literal, rule.literal) || startsWith(rule.literal, grant.literal))) return "overlaps";
  // A rule starting with a glob at the root ("/**/.env") may match inside any workspace.
  if (rule.root === "/" && rule.literal.length === 0) return "overlaps";
  if (grant.root === "/" && grant.literal.length === 0) return "overlaps";
  return undefined;
}

function words(pattern: PathPattern): string {
  const where =
    pattern.variable === "workspace"
      ? " in the project (the event's working directory)"
      : pattern.variable === "home"
        ? " in your home directory"
        : "";
  if (pattern.glob === "**") return `read any file under ${pattern.raw.slice(0, -3) || "/"}${where}`;
  return `read ${pattern.glob === "" ? "the file" : "files matching"} ${pattern.raw}${where}`;
}

export function reviewRead(policy: ReadPolicy, ctx: ReviewContext): GrantReview[] {
  const list = (patterns: readonly PathPattern[], grant: Rooted) => ({
    rules: patterns,
    relate: (rule: unknown) => relate(rooted(rule as PathPattern, ctx.home), grant),
    show: (rule: unknown) => (rule as PathPattern).raw,
  });
  return policy.declared.map((pattern) => {
    const grant = rooted(pattern, ctx.home);
    const verdict = judge({
      kind: "read",
      hookId: ctx.hookId,
      yaml: yamlOf([pattern.raw]),
      deny: list(policy.deny, grant),
      approval: policy.approval && list(policy.approval, grant),
      ceiling: policy.ceiling && list(policy.ceiling, grant),
      defaultCeiling: () => {
        const relations = DEFAULT_READ_PATTERNS.map((rule) => relate(rooted(rule, ctx.home), grant));
        if (relations.includes("covers")) return undefined;
        const reason = `by default hooks read only ${DEFAULT_READ_CEILING.join(" and ")}`;
        return { status: relations.includes("overlaps") ? "capped" : "refused", reason };
      },
    });
    return { kind: "read", grant: readKey(pattern.raw), words: words(pattern), ...verdict };
  });
}
