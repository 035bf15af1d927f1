/** @jsxImportSource hono/jsx */
import type { AuditDecisionV1, AuditEntry, AuditRecordV1 } from "../../../decide/audit/record.ts";
import { wouldBlock } from "../../../decide/audit/read.ts";
import type { SavedReport } from "../../../decide/replay/saved.ts";
import type { ReplayReport } from "../../../decide/replay/report.ts";
import { plural } from "../../../core/text/plural.ts";
import { Columns, DecisionBadge, Layout, When, type Frame } from "./layout.tsx";

/** Would-be blocks listed at most. */
const SHOWN = 200;

/** A monitored hook's would-be block, with the decision record of its event (what the call was). */
export interface ShadowRow {
  readonly run: AuditRecordV1;
  readonly decision: AuditDecisionV1 | undefined;
}

/** The monitored hooks' would-be blocks in the recent log, newest first. */
export function shadowRows(entries: readonly AuditEntry[]): ShadowRow[] {
  const decisions = new Map<string, AuditDecisionV1>();
  for (const entry of entries) if (entry.kind === "decision") decisions.set(entry.event_id, entry);
  return entries
    .filter((entry): entry is AuditRecordV1 => entry.kind !== "decision" && wouldBlock(entry))
    .map((run) => ({ run, decision: decisions.get(run.event_id) }))
    .reverse()
    .slice(0, SHOWN);
}

/** Hooks in shadow mode and what they would have blocked; the replay reports kept with `hookbox replay --save`. */
export function ShadowPage(props: { frame: Frame; monitored: readonly string[]; rows: readonly ShadowRow[]; reports: readonly SavedReport[] }) {
  return (
    <Layout title="Shadow and replay" section="shadow" frame={props.frame}>
      <h1>Shadow and replay</h1>
      <section aria-labelledby="monitored">
        <h2 id="monitored">Hooks in shadow mode</h2>
        {props.monitored.length === 0 ? (
          <p class="muted">
            None. A hook marked <code>hooks: {"{ <id>: { mode: monitor } }"}</code> in the operator file (or added with{" "}
            <code>hookbox add --monitor</code>) runs on every event it matches and blocks nothing: what it would have done is listed here.
          </p>
        ) : (
          <ul>
            {props.monitored.map((id) => {
              const count = props.rows.filter((row) => row.run.hook_id === id).length;
              return (
                <li>
                  <strong>{id}</strong> — would have blocked {plural(count, "call")} in the recent log. Turn it on with{" "}
                  <code>hookbox promote {id}</code> (it shows them first).
                </li>
              );
            })}
          </ul>
        )}
        <table id="would-block">
          <caption>What monitored hooks would have blocked, newest first (the agent was not blocked).</caption>
          <Columns names={["Time", "Hook", "Would", "Call", "Reason", "Session"]} />
          <tbody>
            {props.rows.length === 0 ? (
              <tr class="empty">
                <td colspan={6}>Nothing so far.</td>
              </tr>
            ) : (
              props.rows.map((row) => (
                <tr>
                  <td>
                    <a href={`/runs/${encodeURIComponent(row.run.event_id)}`}>
                      <When at={row.run.started_at} />
                    </a>
                  </td>
                  <td>{row.run.hook_id}</td>
                  <td>
                    <DecisionBadge decision={row.run.would?.decision} />
                  </td>
                  <td>
                    {row.decision?.event_type ?? row.run.event_type}
                    {row.decision?.tool_name ? <span class="tool"> {row.decision.tool_name}</span> : null}
                    {row.decision?.subject ? <div class="reason">{cut(row.decision.subject, 160)}</div> : null}
                  </td>
                  <td class="reason">{cut(row.run.would?.reason ?? row.run.reason ?? "", 200)}</td>
                  <td>
                    <span class="session" title={row.run.session_id}>
                      {cut(row.run.session_id, 12)}
                    </span>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="replays">
        <h2 id="replays">Replay reports</h2>
        <p class="muted">
          Kept by <code>hookbox replay --save</code>: what a hook set would have done to recorded sessions, with no effect.
        </p>
        <table id="replay-reports">
          <Columns names={["Saved", "Command", "Hook set", "Events", "Denied", "Asked"]} />
          <tbody>
            {props.reports.length === 0 ? (
              <tr class="empty">
                <td colspan={6}>No report kept yet.</td>
              </tr>
            ) : (
              props.reports.map((saved) => (
                <tr>
                  <td>
                    <a href={`/replays/${encodeURIComponent(saved.file)}`}>
                      <When at={saved.saved_at} />
                    </a>
                  </td>
                  <td>
                    <code>{cut(saved.command, 120)}</code>
                  </td>
                  <td>{cut(saved.report.hook_set, 80)}</td>
                  <td class="number">{saved.report.totals.events}</td>
                  <td class="number">{saved.report.totals.denied}</td>
                  <td class="number">{saved.report.totals.asked}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </section>
    </Layout>
  );
}

/** One replay report, whole. */
export function ReplayReportPage(props: { frame: Frame; saved: SavedReport }) {
  const { report } = props.saved;
  return (
    <Layout title="Replay report" section="shadow" frame={props.frame}>
      <h1>Replay report</h1>
      <p>
        <code>{props.saved.command}</code> — saved <When at={props.saved.saved_at} />; hook set: {report.hook_set}
      </p>
      <p>{summary(report)}</p>
      <table>
        <caption>Per hook</caption>
        <Columns names={["Hook", "Seen", "Allowed", "Denied", "Asked", "Rewrote", "Failed", "Skipped"]} />
        <tbody>
          {report.hooks.map((hook) => (
            <tr>
              <td>
                {hook.hook_id}
                {hook.monitor ? <span class="badge"> monitor</span> : null}
              </td>
              {[hook.seen, hook.allowed, hook.denied, hook.asked, hook.rewrote, hook.failed, hook.skipped].map((n) => (
                <td class="number">{n}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <table>
        <caption>Denied, asked, rewritten</caption>
        <Columns names={["Time", "Hook", "Decision", "Call", "Reason", "Where"]} />
        <tbody>
          {report.decisions.map((decision) => (
            <tr>
              <td>{decision.at ? <When at={decision.at} /> : "—"}</td>
              <td>{decision.hook_id}</td>
              <td>
                <DecisionBadge decision={decision.decision} />
                {decision.blocked_live ? <div class="muted">blocked in the session too</div> : null}
              </td>
              <td>
                {decision.agent} {decision.tool ?? decision.event_type}
                <div class="reason">{cut(decision.input, 160)}</div>
              </td>
              <td class="reason">{cut(decision.reason, 240)}</td>
              <td>
                <code>
                  {decision.file.slice(decision.file.lastIndexOf("/") + 1)}:{decision.line}
                </code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {report.effects.length > 0 ? (
        <>
          <h2>Effects answered without being made</h2>
          <ul>
            {report.effects.map((effect) => (
              <li>
                {effect.count} {effect.effect} — {effect.hooks.join(", ")}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {report.not_reproduced.length > 0 ? (
        <>
          <h2>Not reproduced as it was</h2>
          <ul>
            {report.not_reproduced.map((item) => (
              <li>
                {item.count} {item.what}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {report.history_problems.length > 0 ? (
        <>
          <h2>History lines skipped</h2>
          <ul>
            {report.history_problems.slice(0, SHOWN).map((problem) => (
              <li>
                <code>
                  {problem.file}:{problem.line}
                </code>{" "}
                {problem.problem}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Layout>
  );
}

function summary(report: ReplayReport): string {
  const sessions = Object.values(report.sources.sessions).reduce((sum, n) => sum + n, 0);
  return `${plural(report.totals.events, "event")} of ${plural(sessions, "session")}: ${report.totals.allowed} allowed, ${report.totals.denied} denied, ${report.totals.asked} asked.`;
}

function cut(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars)}…` : text;
}
