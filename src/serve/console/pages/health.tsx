/** @jsxImportSource hono/jsx */
import type { ExportStats } from "../../../decide/audit/export/index.ts";
import type { AuditStats } from "../../../decide/audit/sink.ts";
import type { MinutePoint } from "../health-series.ts";
import { noun, plural } from "../../../core/text/plural.ts";
import { MinuteChart } from "./chart.tsx";
import { Columns, type Frame, Layout } from "./layout.tsx";

export interface HealthFacts {
  readonly points: readonly MinutePoint[];
  readonly audit: AuditStats;
  readonly exports: readonly ExportStats[];
  readonly sandbox: { readonly workers: number; readonly busy: number; readonly queued: number; readonly kills: number; readonly crashes: number };
  readonly pending: number;
}

/** The figures and charts that the live stream replaces every few seconds. */
export function HealthBody(props: { facts: HealthFacts }) {
  const { points, audit, exports, sandbox } = props.facts;
  const last = points.at(-1);
  const series = (pick: (p: MinutePoint) => number | undefined) => points.map((p) => ({ at: p.at, value: pick(p) }));
  const events = last?.events ?? 0;
  const denials = points.reduce((sum, p) => sum + p.denials, 0);
  return (
    <>
      <ul class="figures" aria-label="This minute">
        <li>
          <span class="figure">{events}</span> {noun(events, "event")} this minute
        </li>
        <li>
          <span class="figure">{last?.p50Ms ?? "—"}</span> ms p50, <span class="figure">{last?.p99Ms ?? "—"}</span> ms p99
        </li>
        <li>
          <span class="figure">{sandbox.kills}</span> sandbox {noun(sandbox.kills, "kill")} since start
        </li>
        <li>
          <span class="figure">{denials}</span> {noun(denials, "denial")} in the last hour
        </li>
        <li>
          <span class="figure">{props.facts.pending}</span> {noun(props.facts.pending, "approval")} waiting
        </li>
      </ul>
      <div class="charts">
        <MinuteChart id="chart-events" title="Events per minute" unit="event" points={series((p) => p.events)} />
        <MinuteChart id="chart-p50" title="Decision time, p50" unit="ms" units="ms" points={series((p) => p.p50Ms)} />
        <MinuteChart id="chart-p99" title="Decision time, p99" unit="ms" units="ms" points={series((p) => p.p99Ms)} />
        <MinuteChart id="chart-kills" title="Sandbox kills per minute" unit="kill" points={series((p) => p.kills)} />
        <MinuteChart id="chart-denials" title="Denials per minute" unit="denial" points={series((p) => p.denials)} />
        <MinuteChart id="chart-capability" title="Host API calls refused per minute" unit="call" points={series((p) => p.capabilityDenials)} />
      </div>
      <h2>Audit log</h2>
      <dl>
        <dt>File</dt>
        <dd>
          <code>{audit.path}</code>
        </dd>
        <dt>State</dt>
        <dd>{audit.failing ? `FAILING: ${audit.lastError ?? "unknown error"}` : "written"}</dd>
        <dt>Records</dt>
        <dd>
          {audit.written} written, {audit.dropped} could not be written, {plural(audit.rotations, "rotation")}
        </dd>
      </dl>
      {exports.length > 0 ? (
        <>
          <h2>Export</h2>
          <table>
            <Columns names={["Target", "Sent", "Waiting", "Dropped", "State"]} />
            <tbody>
              {exports.map((e) => (
                <tr>
                  <td>{e.target}</td>
                  <td class="number">{e.sent}</td>
                  <td class="number">{e.queued}</td>
                  <td class="number">{e.dropped}</td>
                  <td>{e.failing ? `retrying: ${e.lastError ?? ""}` : "ok"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      <h2>Sandbox</h2>
      <p>
        {plural(sandbox.workers, "worker")}, {sandbox.busy} busy, {plural(sandbox.queued, "invocation")} waiting; {sandbox.crashes} crashed since
        start.
      </p>
    </>
  );
}

export function HealthPage(props: { frame: Frame; facts: HealthFacts; live: string }) {
  return (
    <Layout title="Health" section="health" frame={props.frame} live={props.live}>
      <h1>Health</h1>
      <div id="health-live">
        <HealthBody facts={props.facts} />
      </div>
    </Layout>
  );
}
