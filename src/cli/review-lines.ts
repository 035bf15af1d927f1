import { summarizeGrants, type GrantReport, type GrantReview } from "../capabilities/index.ts";
import type { PermissionKind } from "../capabilities/grants/sources.ts";
import type { LoadedHook } from "../hooks/registry/load.ts";
import { MAX_LINE_CHARS, lineWidth, wrap } from "../core/text/wrap.ts";
import type { CliContext } from "./context.ts";

/**
 * A hook's effective grants as text, the same in add, update, verify, list, validate, trust,
 * import and doctor: a line in plain words first (what it can do here, what is refused), then
 * the grants grouped by kind, each with why it is capped or refused and what would allow it,
 * wrapped to the terminal (at most 100 columns).
 */

/** The width review text is wrapped at for this terminal. */
export function reviewWidth(ctx: CliContext): number {
  return lineWidth(ctx.host.terminalColumns?.());
}

/** The groups of the details, in the order a person weighs them. */
const GROUPS: readonly (readonly [PermissionKind, string])[] = [
  ["read", "Files"],
  ["run", "Programs"],
  ["env", "Environment variables"],
  ["net", "Network"],
  ["modify", "Rewriting the event"],
  ["inject_context", "The model's context"],
  ["store", "Storage"],
  ["notify", "Notifications"],
  ["llm", "Model calls"],
];

const STATUS = { granted: "granted", capped: "capped ", refused: "REFUSED" } as const;

/** "here: reads files in your project; runs grep; no network" and, when some are refused, "refused here: runs node". */
export function summaryLines(lines: readonly GrantReview[], indent = "", width = MAX_LINE_CHARS): string[] {
  const summary = summarizeGrants(lines);
  const alone = summary.can.length === 1 && summary.can[0] === "no network";
  const can = alone ? ["decides from the event alone (no files, programs or network)"] : summary.can;
  const out = wrap(can.join("; "), width, `${indent}here: `, `${indent}      `);
  if (summary.refused.length > 0) out.push(...wrap(summary.refused.join("; "), width, `${indent}refused here: `, `${indent}              `));
  return out;
}

/** One grant: its status and the grant as --allow names it (whole: it is copied), then what it lets the hook do, why it is cut and what would allow it. */
function grantLines(line: GrantReview, indent: string, width: number): string[] {
  const under = `${indent}${" ".repeat(9)}`;
  const out = [`${indent}${STATUS[line.status]}  ${line.grant}`, ...wrap(line.words, width, under, under)];
  if (line.why) out.push(...wrap(`why: ${line.why}`, width, under, `${under}  `));
  if (line.allow) {
    // "… in hookbox.yaml:  hooks: { … }": the YAML on a line of its own, ready to copy.
    const cut = line.allow.indexOf(":  ");
    const [say, yaml] = cut < 0 ? [line.allow, undefined] : [line.allow.slice(0, cut + 1), line.allow.slice(cut + 3)];
    out.push(...wrap(`to allow it: ${say}`, width, under, `${under}  `));
    if (yaml !== undefined) out.push(...yamlLines(yaml, `${under}  `, width));
  }
  return out;
}

/**
 * The YAML an approval needs, as a person writes it in hookbox.yaml: the one-line form judge.ts
 * gives (`hooks: { id: { permissions: { run: [...] } } }`) in block style, which stays readable
 * and pastes as it is; anything else wrapped.
 */
function yamlLines(yaml: string, indent: string, width: number): string[] {
  const approval = /^hooks: \{ ([^\s:{}]+): \{ permissions: \{ ([a-z_]+): (.*) \} \} \}$/.exec(yaml);
  if (!approval) return wrap(yaml, width, indent, `${indent}  `);
  const [, id, kind, value] = approval as unknown as [string, string, string, string];
  return [
    `${indent}hooks:`,
    `${indent}  ${id}:`,
    `${indent}    permissions:`,
    ...wrap(`${kind}: ${value}`, width, `${indent}      `, `${indent}        `),
  ];
}

/** The grants grouped by kind, a header per group. */
export function detailLines(lines: readonly GrantReview[], indent = "", width = MAX_LINE_CHARS): string[] {
  return GROUPS.flatMap(([kind, title]) => {
    const mine = lines.filter((line) => line.kind === kind);
    return mine.length === 0 ? [] : [`${indent}${title}`, ...mine.flatMap((line) => grantLines(line, `${indent}  `, width))];
  });
}

export interface ReviewOptions {
  readonly width?: number;
  /** all: every grant in the details; withheld: only those it does not fully get (the summary names the rest). */
  readonly details?: "all" | "withheld";
}

/** The summary, then the details; for a project not trusted yet, first that nothing is granted until it is. */
export function reviewLines(report: GrantReport, indent = "", options: ReviewOptions = {}): string[] {
  const width = options.width ?? MAX_LINE_CHARS;
  const shown = options.details === "withheld" ? report.lines.filter((line) => line.status !== "granted") : report.lines;
  if (!report.untrusted) return [...summaryLines(report.lines, indent, width), ...detailLines(shown, indent, width)];
  const head = wrap(
    `UNTRUSTED: this project's hooks run without any grant until you run \`hookbox trust\` in ${report.untrusted.project}${report.lines.length > 0 ? "; trusted, it would get:" : ""}`,
    width,
    indent,
    `${indent}  `,
  );
  if (report.lines.length === 0) return head;
  return [...head, ...summaryLines(report.lines, `${indent}  `, width), ...detailLines(report.lines, `${indent}  `, width)];
}

/** The grants of a hook that it will not fully get (capped, refused, or all of them while untrusted), with the summary; none when it gets them all. */
export function withheldGrants(hook: LoadedHook, indent = "", width = MAX_LINE_CHARS): string[] {
  const withheld = hook.review.untrusted ? hook.review.lines : hook.review.lines.filter((line) => line.status !== "granted");
  return withheld.length === 0 ? [] : reviewLines(hook.review, indent, { width, details: "withheld" });
}

/**
 * Before a consent: what a refused grant means once the hook is installed — the refusal stays,
 * the hook's calls that need it fail, and if the hook does not handle that, its on_error decides.
 */
export function refusedConsequence(
  hookId: string,
  lines: readonly GrantReview[],
  onError: "continue" | "deny",
  indent = "",
  width = MAX_LINE_CHARS,
): string[] {
  const refused = summarizeGrants(lines).refused;
  if (refused.length === 0) return [];
  const outcome =
    onError === "deny" ? "on_error: deny blocks the agent's action each time" : "on_error: continue lets the agent's action through, unchecked by it";
  const text = `What will not work: ${hookId} asks for grants refused here (${refused.join("; ")}), and installing it does not grant them. Its calls that need them fail inside the hook: it may handle that itself (its README says how); if it does not, the run fails and ${outcome}.`;
  return wrap(text, width, indent, indent);
}
