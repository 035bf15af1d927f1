/** @jsxImportSource hono/jsx */
import { formatBytes } from "../../../../sandbox/index.ts";
import { formatDiagnostic } from "../../../hooks/config/diagnostics.ts";
import type { ProjectHookSet } from "../../../decide/hook-sets.ts";
import type { LoadedHook } from "../../../hooks/registry/load.ts";
import type { BrokenHook } from "../../../hooks/registry/registry.ts";
import { grantsInWords } from "../grants.ts";
import { Layout, type Frame } from "./layout.tsx";

function FireForm(props: { id: string; event: string; project: string | undefined; csrf: string }) {
  return (
    <details class="fire">
      <summary>Fire this hook</summary>
      <form method="post" action={`/hooks/${encodeURIComponent(props.id)}/fire`}>
        <input type="hidden" name="csrf" value={props.csrf} />
        <input type="hidden" name="project" value={props.project ?? ""} />
        <label>
          Event (JSON; empty: a {props.event} event{props.project ? " in this project" : ""})
          <textarea
            name="event"
            rows={4}
            placeholder={`{"event_type": "${props.event}", "tool_name": "Bash", "tool_input": {"command": "ls"}}`}
          ></textarea>
        </label>
        <button type="submit">Fire {props.id}</button>
      </form>
    </details>
  );
}

function HookCard(props: { hook: LoadedHook; project: string | undefined; csrf: string }) {
  const d = props.hook.definition;
  const grants = grantsInWords(props.hook);
  const match = [
    d.match.tool ? `tool ${d.match.tool}` : "",
    d.match.paths ? `paths ${d.match.paths.join(", ")}` : "",
    d.match.fields ? `fields ${Object.keys(d.match.fields).join(", ")}` : "",
  ].filter(Boolean);
  return (
    <article class="hook" aria-labelledby={`hook-${d.id}`}>
      <h3 id={`hook-${d.id}`}>
        {d.id} {d.enabled ? null : <span class="badge">disabled</span>}
        {d.onError === "deny" ? <span class="badge decision-deny">fails closed</span> : null}
        {d.mode === "monitor" ? <span class="badge">monitor: decides nothing</span> : null}
      </h3>
      {d.summary ? <p>{d.summary}</p> : null}
      <dl>
        <dt>Events</dt>
        <dd>{d.events.join(", ")}</dd>
        {match.length > 0 ? (
          <>
            <dt>Only when</dt>
            <dd>{match.join("; ")}</dd>
          </>
        ) : null}
        <dt>May</dt>
        <dd>
          {grants.length === 0 ? (
            <span class="muted">nothing beyond reading the event</span>
          ) : (
            <ul>
              {grants.map((grant) => (
                <li>{grant}</li>
              ))}
            </ul>
          )}
        </dd>
        <dt>Limits</dt>
        <dd>
          {d.limits.cpuMs} ms CPU, {formatBytes(d.limits.memoryBytes)} memory, {d.limits.timeoutMs} ms wall time
        </dd>
        <dt>On failure</dt>
        <dd>{d.onError === "deny" ? "the event is denied" : "the event goes on"}</dd>
        <dt>Source</dt>
        <dd>
          <code>{d.source.file}</code> ({d.source.origin}), priority {d.priority}
        </dd>
      </dl>
      <FireForm id={d.id} event={d.events[0] ?? "PreToolUse"} project={props.project} csrf={props.csrf} />
    </article>
  );
}

function BrokenCard(props: { hook: BrokenHook }) {
  const { hook } = props;
  return (
    <article class="hook broken" aria-labelledby={`hook-${hook.id}`}>
      <h3 id={`hook-${hook.id}`}>
        {hook.id} <span class="badge status-failed">broken</span>
      </h3>
      <p>
        It did not load, so it fails wherever it would run: {hook.onError === "deny" ? "those events are denied" : "those events go on"} (on_error:{" "}
        {hook.onError}).
      </p>
      <dl>
        <dt>Events</dt>
        <dd>{hook.events === "all" ? "every event (its events cannot be read)" : hook.events.join(", ")}</dd>
        <dt>Source</dt>
        <dd>
          <code>{hook.file}</code> ({hook.origin})
        </dd>
      </dl>
      <ul class="problems">
        {hook.problems.map((problem) => (
          <li>
            <code>{formatDiagnostic(problem)}</code>
          </li>
        ))}
      </ul>
    </article>
  );
}

export function HooksPage(props: { frame: Frame; sets: readonly ProjectHookSet[] }) {
  return (
    <Layout title="Hooks" section="hooks" frame={props.frame}>
      <h1>Hooks</h1>
      <p class="muted">The hooks the daemon has loaded: the user's and the standard ones, and each project's it has seen an event from.</p>
      {props.sets.map(({ project, snapshot }) => (
        <section aria-labelledby={`set-${project ?? "user"}`}>
          <h2 id={`set-${project ?? "user"}`}>{project ? `Project ${project}` : "Every project (user and standard hooks)"}</h2>
          <p class="muted">
            Version {snapshot.version}, loaded {snapshot.loadedAt}
            {snapshot.operatorStatus.state !== "ok" ? `; operator file: ${snapshot.operatorStatus.state}` : ""}
          </p>
          {snapshot.operatorStatus.state !== "ok" ? (
            <ul class="problems">
              {snapshot.operatorStatus.problems.map((problem) => (
                <li>
                  <code>{formatDiagnostic(problem)}</code>
                </li>
              ))}
            </ul>
          ) : null}
          {snapshot.hooks.length + snapshot.broken.length === 0 ? <p class="muted">No hooks.</p> : null}
          {snapshot.broken.map((hook) => (
            <BrokenCard hook={hook} />
          ))}
          {snapshot.hooks.map((hook) => (
            <HookCard hook={hook} project={project} csrf={props.frame.csrf} />
          ))}
        </section>
      ))}
    </Layout>
  );
}
