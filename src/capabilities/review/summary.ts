import type { PermissionKind } from "../grants/sources.ts";
import type { GrantReview } from "./types.ts";

/**
 * A hook's review in plain words, a phrase per kind of grant: what it can do here ("reads files
 * in your project", "runs git, grep") and what it asks for that is refused here. The first line
 * a person reads before the details; computed from the review lines, so it never says more
 * than they do.
 */
export interface GrantSummary {
  /** Granted or capped (a capped grant's phrase ends "(partly)"), network last: "no network" when none. */
  readonly can: readonly string[];
  /** Asked for and refused here, in the same words. */
  readonly refused: readonly string[];
}

/** The order phrases come in: what it touches first, what it tells last. */
const ORDER: readonly PermissionKind[] = ["read", "run", "env", "modify", "inject_context", "store", "notify", "llm", "net"];

export function summarizeGrants(lines: readonly GrantReview[]): GrantSummary {
  const usable = lines.filter((line) => line.status !== "refused");
  const can = phrases(usable);
  if (!usable.some((line) => line.kind === "net")) can.push("no network");
  return { can, refused: phrases(lines.filter((line) => line.status === "refused")) };
}

function phrases(lines: readonly GrantReview[]): string[] {
  const out: string[] = [];
  for (const kind of ORDER) {
    const mine = lines.filter((line) => line.kind === kind);
    if (mine.length === 0) continue;
    const targets = kind === "read" ? places(mine.map((line) => line.grant.slice("read ".length))) : [...new Set(mine.map((line) => target(line)))];
    const partly = mine.some((line) => line.status === "capped") ? " (partly)" : "";
    out.push(`${VERB[kind](targets)}${partly}`);
  }
  return out;
}

const list = (targets: readonly string[]): string => targets.join(", ");

const VERB: Readonly<Record<PermissionKind, (targets: readonly string[]) => string>> = {
  read: (targets) => `reads ${list(targets)}`,
  run: (targets) => `runs ${list(targets)}`,
  env: (targets) => `sees the environment variable${targets.length === 1 ? "" : "s"} ${list(targets)}`,
  net: (targets) => `connects to ${list(targets)}`,
  modify: (targets) => `rewrites the event's ${list(targets)} before the guards check it`,
  inject_context: () => "adds text to the model's context",
  store: () => "keeps data between runs",
  notify: () => "sends you notifications",
  llm: (targets) => `asks your model endpoint${targets.length === 1 ? "" : "s"} ${list(targets)}`,
};

/** What one grant is about, short: the program of a run grant, the name of an env grant … */
function target(line: GrantReview): string {
  const rest = line.grant.slice(line.kind.length + 1);
  return line.kind === "run" ? firstWord(rest) : rest;
}

/** Project files this many and more are counted, not named. */
const NAMED_FILES = 4;

/**
 * Where read grants point, as a person says it: `${workspace}/**` → "files in your project";
 * `${workspace}/a.json` and `${workspace}/src/**` → "a.json, src/ in your project"; `${home}/x` → "~/x".
 */
function places(patterns: readonly string[]): string[] {
  const inProject: string[] = [];
  const elsewhere: string[] = [];
  let everything = false;
  for (const pattern of patterns) {
    if (pattern === "${workspace}/**" || pattern === "${workspace}") everything = true;
    else if (pattern.startsWith("${workspace}/")) inProject.push(pattern.slice("${workspace}/".length).replace(/\*\*$/, ""));
    else elsewhere.push((pattern.startsWith("${home}") ? `~${pattern.slice("${home}".length)}` : pattern).replace(/\/\*\*$/, "/"));
  }
  const named =
    inProject.length > NAMED_FILES
      ? `${inProject.slice(0, NAMED_FILES - 1).join(", ")} and ${inProject.length - NAMED_FILES + 1} more`
      : inProject.join(", ");
  const project = everything ? ["files in your project"] : inProject.length > 0 ? [`${named} in your project`] : [];
  return [...new Set([...project, ...elsewhere])];
}

/** The command of a run grant's key (keys.ts quotes a word with spaces or quotes as JSON). */
function firstWord(rest: string): string {
  const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
  if (quoted) {
    try {
      return JSON.parse(`"${quoted[1] ?? ""}"`) as string;
    } catch {
      return quoted[1] ?? rest;
    }
  }
  return rest.split(" ")[0] ?? rest;
}
