import type { ReplayComparison } from "../decide/replay/compare.ts";
import type { ListedDecision, ReplayReport } from "../decide/replay/report.ts";
import { plural } from "../core/text/plural.ts";

/** How much of a call's input and a reason a line shows. */
const INPUT_CHARS = 100;
const REASON_CHARS = 200;

/** A replay's report as the person reads it: where from, per hook, each deny/ask/rewrite, what was not made or reproduced. */
export function formatReport(report: ReplayReport, limit: number): string {
  const lines: string[] = [];
  const sessions = Object.entries(report.sources.sessions);
  const sessionCount = sessions.reduce((sum, [, n]) => sum + n, 0);
  lines.push(
    `Replayed ${plural(report.totals.events, "event")} of ${plural(sessionCount, "session")}${sessions.length > 0 ? ` (${sessions.map(([agent, n]) => `${agent} ${n}`).join(", ")})` : ""} from ${plural(report.sources.files, "file")}, hook set: ${report.hook_set}`,
  );
  const events = Object.entries(report.sources.events);
  if (events.length > 0) lines.push(`  ${events.map(([type, n]) => `${type} ${n}`).join(" · ")}`);
  lines.push(
    `  decided: ${report.totals.allowed} allowed, ${report.totals.denied} denied, ${report.totals.asked} asked${report.totals.incomplete > 0 ? ` (${report.totals.incomplete} by the fail-closed rule)` : ""}`,
  );
  lines.push("");
  if (report.hooks.length === 0) lines.push("No hook matched any event.");
  else lines.push(...hookTable(report));
  const listed = report.decisions;
  if (listed.length > 0) {
    lines.push("", `Denied, asked, rewritten (${listed.length}${listed.length > limit ? `; the first ${limit} shown, --json lists all` : ""}):`);
    let hook: string | undefined;
    for (const decision of listed.slice(0, limit)) {
      if (decision.hook_id !== hook) {
        hook = decision.hook_id;
        lines.push(`  ${hook}${decision.monitor ? "  (monitor mode: what it would have done)" : ""}`);
      }
      lines.push(...decisionLines(decision));
    }
  }
  if (report.effects.length > 0) {
    lines.push("", "Effects the hooks asked for, answered without being made (nothing left this machine or changed a file):");
    for (const effect of report.effects) lines.push(`  ${effect.count} ${effect.effect} — ${effect.hooks.join(", ")}${example(effect.examples)}`);
  }
  if (report.not_reproduced.length > 0) {
    lines.push("", "Not reproduced as it was in the sessions:");
    for (const item of report.not_reproduced) lines.push(`  ${item.count} ${item.what}${example(item.examples)}`);
  }
  if (report.history_problems.length > 0) {
    lines.push("", `History lines skipped (${report.history_problems.length}):`);
    for (const problem of report.history_problems.slice(0, limit)) lines.push(`  ${problem.file}:${problem.line}: ${problem.problem}`);
    if (report.history_problems.length > limit) lines.push(`  … and ${report.history_problems.length - limit} more (--json lists all)`);
  }
  return `${lines.join("\n")}\n`;
}

function hookTable(report: ReplayReport): string[] {
  const columns = ["seen", "allowed", "denied", "asked", "rewrote", "failed", "skipped"] as const;
  const width = Math.max(4, ...report.hooks.map((hook) => hook.hook_id.length + (hook.monitor ? 10 : 0)));
  const header = `${"hook".padEnd(width)}  ${columns.map((c) => c.padStart(7)).join(" ")}`;
  return [
    header,
    ...report.hooks.map(
      (hook) => `${`${hook.hook_id}${hook.monitor ? " (monitor)" : ""}`.padEnd(width)}  ${columns.map((c) => String(hook[c]).padStart(7)).join(" ")}`,
    ),
  ];
}

function decisionLines(decision: ListedDecision): string[] {
  const what = [decision.agent, decision.tool ?? decision.event_type, cut(decision.input, INPUT_CHARS)].filter(Boolean).join("  ");
  return [
    `    ${decision.at ?? "(no time)"}  ${decision.decision.padEnd(7)} ${decision.session.slice(0, 8)}  ${what}${decision.blocked_live ? "  (blocked in the session too)" : ""}`,
    `        ${cut(decision.reason, REASON_CHARS)}  [${decision.file}:${decision.line}]`,
  ];
}

/** `--compare A B`: only the calls decided differently. */
export function formatComparison(comparison: ReplayComparison, limit: number): string {
  const lines = [
    `Compared over ${plural(comparison.events, "event")}: A = ${comparison.a}, B = ${comparison.b}`,
    comparison.differences.length === 0
      ? "  A and B decide every call the same."
      : `  ${plural(comparison.differences.length, "call")} decided differently: ${comparison.newly_blocked} newly blocked by B, ${comparison.newly_allowed} newly allowed by B`,
  ];
  for (const difference of comparison.differences.slice(0, limit)) {
    const what = [difference.agent, difference.tool ?? difference.event_type, cut(difference.input, INPUT_CHARS)].filter(Boolean).join("  ");
    lines.push(`  ${difference.at ?? "(no time)"}  ${difference.change}  ${difference.session.slice(0, 8)}  ${what}`);
    lines.push(
      `      A: ${difference.a.decision}${difference.a.by ? ` by ${difference.a.by}` : ""}${difference.a.reason ? ` — ${cut(difference.a.reason, REASON_CHARS)}` : ""}`,
    );
    lines.push(
      `      B: ${difference.b.decision}${difference.b.by ? ` by ${difference.b.by}` : ""}${difference.b.reason ? ` — ${cut(difference.b.reason, REASON_CHARS)}` : ""}`,
    );
    lines.push(`      [${difference.file}:${difference.line}]`);
  }
  if (comparison.differences.length > limit) lines.push(`  … and ${comparison.differences.length - limit} more (--json lists all)`);
  return `${lines.join("\n")}\n`;
}

function cut(text: string, chars: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > chars ? `${line.slice(0, chars)}…` : line;
}

function example(examples: readonly string[]): string {
  return examples.length > 0 ? ` (e.g. ${examples.map((e) => cut(e, 80)).join("; ")})` : "";
}
