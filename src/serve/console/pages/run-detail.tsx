/** @jsxImportSource hono/jsx */
import type { AuditRecordV1 } from "../../../decide/audit/record.ts";
import type { EventGroup } from "../recent.ts";
import { plural } from "../../../core/text/plural.ts";
import { Columns, DecisionBadge, type Frame, Layout, StatusBadge, When } from "./layout.tsx";

/** Where in a handler a failure happened, as its message names it (`handler.ts:12:5`). */
export function handlerLocation(text: string | undefined): string | undefined {
  return text ? /([\w./@-]+\.(?:ts|tsx|mts|js|mjs)):(\d+)(?::(\d+))?/.exec(text)?.[0] : undefined;
}

function Field(props: { name: string; value: unknown }) {
  if (props.value === undefined || props.value === null || props.value === "") return null;
  return (
    <>
      <dt>{props.name}</dt>
      <dd>{typeof props.value === "string" || typeof props.value === "number" ? String(props.value) : JSON.stringify(props.value)}</dd>
    </>
  );
}

function HookRun(props: { run: AuditRecordV1 }) {
  const { run } = props;
  const location = run.status === "failed" ? handlerLocation(run.reason) : undefined;
  return (
    <section class="run" aria-labelledby={`run-${run.id}`}>
      <h3 id={`run-${run.id}`}>
        {run.hook_id} <StatusBadge status={run.status} />
        {run.phase === "transform" ? <span class="badge">transform</span> : null}
        {run.mode === "monitor" ? <span class="badge">monitor mode</span> : null}
      </h3>
      <dl>
        <Field name="Why it ran" value={run.trigger_reason} />
        {run.would ? (
          <Field
            name="Would have"
            value={`${run.would.decision}${run.would.reason ? `: ${run.would.reason}` : ""} (shadow mode: the agent got none of it; hookbox promote ${run.hook_id} turns it on)`}
          />
        ) : null}
        <Field name="Action" value={run.action} />
        <Field name={run.status === "failed" ? "Error" : run.status === "skipped" ? "Skipped because" : "Reason"} value={run.reason} />
        <Field name="Error code" value={run.error_code} />
        {location ? <Field name="In the handler at" value={location} /> : null}
        <Field name="Duration" value={`${run.duration_ms} ms`} />
        {run.stats ? (
          <Field
            name="Sandbox"
            value={`${run.stats.cpu_ms} ms CPU, ${Math.round(run.stats.heap_bytes / 1024)} KiB heap${run.stats.cold_start ? ", cold start" : ""}`}
          />
        ) : null}
      </dl>
      {run.notes && run.notes.length > 0 ? (
        <ul class="notes">
          {run.notes.map((note) => (
            <li>{note}</li>
          ))}
        </ul>
      ) : null}
      {run.injections.length > 0 ? (
        <>
          <h4>Context injected</h4>
          {run.injections.map((injection) => (
            <figure class="injection">
              <figcaption>
                from {run.hook_id}, as {injection.role}
                {injection.truncated ? " (truncated)" : ""}
              </figcaption>
              <pre>{injection.content}</pre>
            </figure>
          ))}
        </>
      ) : null}
      {run.host_calls.length > 0 ? (
        <>
          <h4>Host calls</h4>
          <table>
            <Columns names={["API", "Target", "Outcome", "Detail", "Time"]} />
            <tbody>
              {run.host_calls.map((call) => (
                <tr class={call.outcome === "denied" ? "denied" : undefined}>
                  <td>{call.capability}</td>
                  <td>
                    <code>{call.target}</code>
                  </td>
                  <td>
                    <StatusBadge status={call.outcome} />
                  </td>
                  <td>{call.detail ?? ""}</td>
                  <td class="number">{call.duration_ms} ms</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      {run.logs.length > 0 ? (
        <>
          <h4>Log</h4>
          <pre class="log">{run.logs.map((entry) => `${entry.level}: ${entry.message}`).join("\n")}</pre>
        </>
      ) : null}
    </section>
  );
}

export function RunDetailPage(props: { frame: Frame; group: EventGroup }) {
  const { group } = props;
  const d = group.decision;
  const eventType = d?.event_type ?? group.runs[0]?.event_type ?? "?";
  return (
    <Layout title={`${eventType} ${group.eventId}`} section="runs" frame={props.frame}>
      <p>
        <a href="/">← Runs</a>
      </p>
      <h1>
        {eventType}
        {d?.tool_name ? ` ${d.tool_name}` : ""} <DecisionBadge decision={d?.decision} />
      </h1>
      <section aria-labelledby="event-h">
        <h2 id="event-h">The event</h2>
        <dl>
          <dt>Answered</dt>
          <dd>
            <When at={group.at} />
          </dd>
          <Field name="Event id" value={group.eventId} />
          <Field name="Subject" value={d?.subject} />
          <Field name="Session" value={d?.session_id ?? group.runs[0]?.session_id} />
          <Field name="Agent" value={d?.agent} />
          <Field name="Project" value={d?.project} />
          {d ? <Field name="Served by" value={`${d.served_by.via} (pid ${d.served_by.pid}, build ${d.served_by.build})`} /> : null}
          {d ? (
            <Field
              name="Hook set"
              value={`version ${d.hook_set.registry_version}, ${plural(d.hook_set.hooks, "hook")}${d.hook_set.broken.length ? `, broken: ${d.hook_set.broken.join(", ")}` : ""}, operator file ${d.hook_set.operator}`}
            />
          ) : null}
        </dl>
      </section>
      <section aria-labelledby="decision-h">
        <h2 id="decision-h">The decision</h2>
        {d ? (
          <dl>
            <Field name="Decision" value={d.decision} />
            <Field name="Reason" value={d.reason} />
            <Field name="Decided by" value={d.decided_by} />
            {d.approval ? (
              <Field
                name="Approval"
                value={`${d.approval.decision} — ${d.approval.by}${d.approval.via ? ` via ${d.approval.via}` : ""}${d.approval.always ? ", always for this session" : ""} (asked by ${d.approval.hook_id})`}
              />
            ) : null}
            {d.escalation ? (
              <Field
                name="Escalation"
                value={`${d.escalation.answer}: ${d.escalation.denials} denied tool calls in this session (the operator's escalation.after_denials is ${d.escalation.after_denials})`}
              />
            ) : null}
            {d.incomplete ? (
              <Field name="Could not fully evaluate" value={`${d.incomplete.code}: ${d.incomplete.cause}; ${d.incomplete.rule}`} />
            ) : null}
            <Field name="Duration" value={`${d.duration_ms} ms`} />
          </dl>
        ) : (
          <p class="muted">This event was recorded before decisions were audited: only its hook runs are known.</p>
        )}
      </section>
      <section aria-labelledby="runs-h">
        <h2 id="runs-h">Each hook's result</h2>
        {group.runs.length === 0 ? <p class="muted">No hook matched this event.</p> : group.runs.map((run) => <HookRun run={run} />)}
      </section>
    </Layout>
  );
}
