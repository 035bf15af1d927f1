/** @jsxImportSource hono/jsx */
import type { ApprovalOutcome, PendingApproval } from "../../../decide/approvals/store.ts";
import { Columns, type Frame, Layout, When } from "./layout.tsx";

/** An approval that stopped waiting, as the console saw it. */
export interface Answered {
  readonly approval: PendingApproval;
  readonly outcome: ApprovalOutcome;
  readonly at: string;
}

/** The pending approvals with their answer buttons: the part of the page the live stream replaces. */
export function PendingList(props: { pending: readonly PendingApproval[]; csrf: string }) {
  if (props.pending.length === 0) return <p class="muted">Nothing is waiting for an answer.</p>;
  return (
    <>
      {props.pending.map((a) => (
        <article class="approval" id={`approval-${a.id}`} aria-labelledby={`approval-h-${a.id}`}>
          <h3 id={`approval-h-${a.id}`}>{a.prompt}</h3>
          <dl>
            <dt>Asked by</dt>
            <dd>{a.hook_id}</dd>
            <dt>Event</dt>
            <dd>
              {a.event_type}
              {a.tool_name ? ` ${a.tool_name}` : ""}
            </dd>
            <dt>What</dt>
            <dd>
              <code>{a.subject}</code>
            </dd>
            <dt>Session</dt>
            <dd>{a.session_id}</dd>
            {a.options.length > 0 ? (
              <>
                <dt>Options the hook offers</dt>
                <dd>{a.options.join(", ")}</dd>
              </>
            ) : null}
            <dt>Unanswered by</dt>
            <dd>
              <When at={a.expires_at} /> it is answered <strong>{a.default}</strong>
            </dd>
          </dl>
          <form method="post" action={`/approvals/${encodeURIComponent(a.id)}`} class="answer">
            <input type="hidden" name="csrf" value={props.csrf} />
            <button type="submit" name="decision" value="allow" class="allow">
              Approve
            </button>
            <button type="submit" name="decision" value="deny" class="deny">
              Deny
            </button>
            <button type="submit" name="decision" value="allow_always">
              Always allow for this session
            </button>
          </form>
        </article>
      ))}
    </>
  );
}

const VIA: Record<string, string> = { cli: "hookbox approve/deny", console: "this console", api: "the HTTP API" };

export function ApprovalsPage(props: {
  frame: Frame;
  pending: readonly PendingApproval[];
  answered: readonly Answered[];
  notice?: string;
  live: string;
}) {
  return (
    <Layout title="Approvals" section="approvals" frame={props.frame} live={props.live}>
      <h1>Approvals</h1>
      {props.notice ? (
        <p class="notice" role="status">
          {props.notice}
        </p>
      ) : null}
      <section aria-labelledby="waiting-h">
        <h2 id="waiting-h">Waiting</h2>
        <div id="approvals-live">
          <PendingList pending={props.pending} csrf={props.frame.csrf} />
        </div>
      </section>
      <section aria-labelledby="answered-h">
        <h2 id="answered-h">Recently answered</h2>
        {props.answered.length === 0 ? (
          <p class="muted">None since the daemon started.</p>
        ) : (
          <table>
            <Columns names={["Time", "Asked", "Answer", "By"]} />
            <tbody>
              {props.answered.map(({ approval, outcome, at }) => (
                <tr>
                  <td>
                    <When at={at} />
                  </td>
                  <td>
                    {approval.hook_id}: {approval.prompt}
                  </td>
                  <td>
                    <span class={`badge decision-${outcome.decision}`}>{outcome.decision}</span>
                    {outcome.always ? " (always, this session)" : ""}
                  </td>
                  <td>{outcome.by === "user" ? `a person, in ${VIA[outcome.via ?? "api"]}` : outcome.by}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </Layout>
  );
}
