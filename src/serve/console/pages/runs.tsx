/** @jsxImportSource hono/jsx */
import { isDoctorCall, type EventGroup, type RunFilter } from "../recent.ts";
import { plural } from "../../../core/text/plural.ts";
import { Columns, DecisionBadge, type Frame, Layout, ShortPath, StatusBadge, When } from "./layout.tsx";

/** Rows the table holds at most (console.js trims to the same as new ones arrive). */
export const RUNS_SHOWN = 200;

/** One event: when, what, which hooks ran and how, the decision, its time, session and project. */
export function RunRow(props: { group: EventGroup }) {
  const { group } = props;
  const d = group.decision;
  const eventType = d?.event_type ?? group.runs[0]?.event_type ?? "?";
  const session = d?.session_id ?? group.runs[0]?.session_id ?? "";
  return (
    <tr data-event-id={group.eventId}>
      <td>
        <a href={`/runs/${encodeURIComponent(group.eventId)}`} aria-label={`Details of ${eventType} at ${group.at}`}>
          <When at={group.at} />
        </a>
      </td>
      <td>
        {eventType}
        {d?.tool_name ? <span class="tool"> {d.tool_name}</span> : null}
        {isDoctorCall(group) ? (
          <span class="badge doctor" title="A test call hookbox doctor sent through an agent's hook entry">
            doctor's test
          </span>
        ) : null}
      </td>
      <td>
        {group.runs.length === 0 ? (
          <span class="muted">no hook ran</span>
        ) : (
          <ul class="hooks">
            {group.runs.map((run) => (
              <li>
                {run.hook_id} <StatusBadge status={run.status} />
                {run.would ? <span class={`badge would decision-${run.would.decision}`}>would {run.would.decision}</span> : null}
              </li>
            ))}
          </ul>
        )}
      </td>
      <td>
        <DecisionBadge decision={d?.decision} />
        {d?.reason ? <div class="reason">{d.reason.length > 160 ? `${d.reason.slice(0, 160)}…` : d.reason}</div> : null}
      </td>
      <td class="number">{d ? `${d.duration_ms} ms` : "—"}</td>
      <td>
        <span class="session" title={session}>
          {session.length > 12 ? `${session.slice(0, 12)}…` : session}
        </span>
      </td>
      <td>
        <ShortPath path={d?.project} />
      </td>
    </tr>
  );
}

/** What the defaults leave out of the table, so nothing is hidden without a word. */
function HiddenNote(props: { hidden: { readonly quiet: number; readonly doctor: number } }) {
  const { quiet, doctor } = props.hidden;
  if (quiet === 0 && doctor === 0) return null;
  const parts = [
    ...(quiet > 0 ? [`${plural(quiet, "event")} allowed with no hook run`] : []),
    ...(doctor > 0 ? [`${plural(doctor, "test call")} from hookbox doctor`] : []),
  ];
  return (
    <p class="hidden-note" id="hidden-note">
      Not shown: {parts.join(" and ")} (tick “Also show” above to see {quiet + doctor === 1 ? "it" : "them"}).
    </p>
  );
}

export function EmptyRunsRow() {
  return (
    <tr class="empty">
      <td colspan={7}>No runs yet. They appear here as the daemon answers events.</td>
    </tr>
  );
}

export function RunsPage(props: {
  frame: Frame;
  groups: readonly EventGroup[];
  filter: RunFilter;
  hidden: { readonly quiet: number; readonly doctor: number };
  live: string;
}) {
  const { filter } = props;
  const field = (name: keyof RunFilter, label: string, placeholder: string) => (
    <label>
      {label}
      <input name={name} value={filter[name] ?? ""} placeholder={placeholder} />
    </label>
  );
  return (
    <Layout title="Runs" section="runs" frame={props.frame} live={props.live}>
      <h1>Runs</h1>
      <form method="get" action="/" class="filters" role="search" aria-label="Filter runs">
        {field("event", "Event", "PreToolUse")}
        {field("hook", "Hook", "hook id")}
        <label>
          Decision
          <select name="decision">
            {["", "allow", "deny", "ask"].map((value) => (
              <option value={value} selected={filter.decision === value}>
                {value || "any"}
              </option>
            ))}
          </select>
        </label>
        {field("session", "Session", "session id")}
        {field("project", "Project", "/path/to/project")}
        <fieldset class="shown">
          <legend>Also show</legend>
          <label class="check">
            <input type="checkbox" name="no_hook" value="show" checked={filter.no_hook === "show"} /> events no hook ran for
          </label>
          <label class="check">
            <input type="checkbox" name="doctor" value="show" checked={filter.doctor === "show"} /> hookbox doctor's test calls
          </label>
        </fieldset>
        <button type="submit">Filter</button>
        <a href="/">Clear</a>
      </form>
      <HiddenNote hidden={props.hidden} />
      <table id="runs">
        <caption>Newest first. Each row is one event and the hooks that ran for it; new events appear as they are answered.</caption>
        <Columns names={["Time", "Event", "Hooks", "Decision", "Duration", "Session", "Project"]} />
        <tbody id="runs-body" data-limit={RUNS_SHOWN}>
          {props.groups.length === 0 ? <EmptyRunsRow /> : props.groups.map((group) => <RunRow group={group} />)}
        </tbody>
      </table>
    </Layout>
  );
}
