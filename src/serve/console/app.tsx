/** @jsxImportSource hono/jsx */
import { Hono, type Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import type { ApprovalStore, ApprovalVerdict } from "../../decide/approvals/store.ts";
import type { AuditEntry } from "../../decide/audit/record.ts";
import { HookboxError, errorMessage } from "../../core/errors.ts";
import type { HookSets } from "../../decide/hook-sets.ts";
import type { Evaluation } from "../../decide/evaluator.ts";
import { parseEvent } from "../../core/events/parse.ts";
import type { NativeEvent } from "../../core/events/types.ts";
import { CONSOLE_CSS, CONSOLE_ICON, CONSOLE_JS } from "./assets.ts";
import type { ConsoleAuth } from "./auth.ts";
import { actionCheck, cookieName, hostCheck, refuse, securityHeaders, sessionCheck, type ConsoleEnv } from "./guard.tsx";
import type { LiveChange, LiveHub, LiveMessage } from "./live.ts";
import { ApprovalsPage, PendingList, type Answered } from "./pages/approvals.tsx";
import { HealthBody, HealthPage, type HealthFacts } from "./pages/health.tsx";
import { HooksPage } from "./pages/hooks.tsx";
import { documentOf, type Frame } from "./pages/layout.tsx";
import { MessagePage } from "./pages/message.tsx";
import { RunDetailPage } from "./pages/run-detail.tsx";
import { RUNS_SHOWN, RunRow, RunsPage } from "./pages/runs.tsx";
import { ReplayReportPage, ShadowPage, shadowRows } from "./pages/shadow.tsx";
import { monitoredIds } from "../../decide/chain/shadow.ts";
import type { SavedReport } from "../../decide/replay/saved.ts";
import { filterFrom, groupByEvent, hiddenByDefault, matchesFilter, type RunFilter } from "./recent.ts";

/** What the console shows and acts on; it owns no listener and no resource (index.ts and the daemon do). */
export interface ConsoleDeps {
  readonly auth: ConsoleAuth;
  /** The listener's port (known once it listens): the Host check and the cookie's name use it. */
  readonly port: () => number;
  readonly hub: LiveHub;
  /** The end of the audit log, oldest first (every writer's records). */
  readonly recentEntries: () => Promise<readonly AuditEntry[]>;
  readonly approvals: ApprovalStore;
  readonly answered: () => readonly Answered[];
  readonly hookSets: HookSets;
  readonly fire: (hookId: string, event: NativeEvent) => Promise<Evaluation | undefined>;
  readonly health: () => HealthFacts;
  /** One sentence per hook set served with no guard but self-protect (unguarded.ts), shown atop every page. */
  readonly unguarded: () => Promise<readonly string[]>;
  readonly version: string;
  readonly pid: number;
  /** The replay reports kept with `hookbox replay --save`, newest first (none when the console has no data directory). */
  readonly replayReports?: () => Promise<readonly SavedReport[]>;
}

const VERDICTS: readonly ApprovalVerdict[] = ["allow", "deny", "allow_always"];
const PUBLIC = new Set(["/login", "/assets/console.css", "/assets/console.js", "/favicon.ico"]);

/** The console's Hono app: pages rendered on the server, live updates over SSE, actions as plain forms. */
export function createConsoleApp(deps: ConsoleDeps): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  app.use("*", securityHeaders());
  app.use("*", hostCheck(deps.port));
  app.use(
    "*",
    sessionCheck(deps.auth, deps.port, (path) => PUBLIC.has(path)),
  );
  app.use("*", actionCheck());

  const frame = async (c: Context<ConsoleEnv>): Promise<Frame> => ({
    version: deps.version,
    pid: deps.pid,
    pending: deps.approvals.list().length,
    csrf: c.get("session").csrf,
    unguarded: await deps.unguarded(),
  });

  app.get("/assets/console.css", (c) => c.body(CONSOLE_CSS, 200, { "content-type": "text/css; charset=utf-8" }));
  app.get("/assets/console.js", (c) => c.body(CONSOLE_JS, 200, { "content-type": "text/javascript; charset=utf-8" }));
  app.get("/favicon.ico", (c) => c.body(CONSOLE_ICON, 200, { "content-type": "image/svg+xml" }));

  /**
   * The login link: the token is spent, the session's cookie set, and the page moves on to the
   * console by itself. (A redirect would not do: the browser would not send a SameSite=Strict
   * cookie on a redirect that began outside this site, a click in a terminal say.)
   */
  app.get("/login", (c) => {
    const session = deps.auth.redeem(c.req.query("token") ?? "");
    if (!session) return refuse(c, 403, "This login link was already used or has expired. Run `hookbox console` for a new one.");
    setCookie(c, cookieName(deps.port()), session.id, { httpOnly: true, sameSite: "Strict", path: "/" });
    return c.html(
      documentOf(
        <MessagePage title="Hookbox console" message="Signed in." refreshTo="/">
          <p>
            <a href="/">Open the console</a>
          </p>
        </MessagePage>,
      ),
    );
  });

  app.post("/logout", (c) => {
    deps.auth.end(c.get("session").id);
    deleteCookie(c, cookieName(deps.port()), { path: "/" });
    return c.html(documentOf(<MessagePage title="Hookbox console" message="Signed out. Run `hookbox console` to sign in again." />));
  });

  app.get("/", async (c) => {
    const filter = filterFrom((key) => c.req.query(key));
    const all = groupByEvent(await deps.recentEntries());
    const groups = all.filter((group) => matchesFilter(group, filter)).slice(0, RUNS_SHOWN);
    return c.html(
      documentOf(
        <RunsPage
          frame={await frame(c)}
          groups={groups}
          filter={filter}
          hidden={hiddenByDefault(all, filter)}
          live={liveUrl("runs", filter, groups[0]?.at)}
        />,
      ),
    );
  });

  app.get("/runs/:id", async (c) => {
    const id = c.req.param("id");
    const group = groupByEvent((await deps.recentEntries()).filter((entry) => entry.event_id === id))[0];
    if (!group) return refuse(c, 404, `No event ${id} in the recent part of the audit log (look further back with: hookbox runs).`);
    return c.html(documentOf(<RunDetailPage frame={await frame(c)} group={group} />));
  });

  app.get("/approvals", async (c) => {
    const notice = c.req.query("notice");
    return c.html(
      documentOf(
        <ApprovalsPage
          frame={await frame(c)}
          pending={deps.approvals.list()}
          answered={deps.answered()}
          live={liveUrl("approvals")}
          {...(notice ? { notice } : {})}
        />,
      ),
    );
  });

  /** The same store as `hookbox approve`: the waiting request gets the answer at once. */
  app.post("/approvals/:id", async (c) => {
    const form = await c.req.parseBody();
    const verdict = VERDICTS.find((v) => v === form.decision);
    if (!verdict) return refuse(c, 403, "Refused: the answer must be allow, deny or allow_always.");
    const id = c.req.param("id");
    const done = deps.approvals.resolve(id, verdict, "console");
    const notice = done
      ? `Answered: ${verdict === "allow_always" ? "allowed for the rest of the session" : verdict === "allow" ? "allowed" : "denied"}.`
      : "That approval is no longer waiting (answered elsewhere, or timed out).";
    return c.redirect(`/approvals?notice=${encodeURIComponent(notice)}`, 303);
  });

  app.get("/hooks", async (c) => {
    const sets = await Promise.all(deps.hookSets.projects().map((project) => deps.hookSets.forProject(project)));
    return c.html(documentOf(<HooksPage frame={await frame(c)} sets={sets} />));
  });

  /** Fire a hook by hand, on the event given (or a minimal one), then show what it did. */
  app.post("/hooks/:id/fire", async (c) => {
    const form = await c.req.parseBody();
    const id = c.req.param("id");
    const project = typeof form.project === "string" && form.project.startsWith("/") ? form.project : undefined;
    let given: Record<string, unknown> = {};
    try {
      const text = typeof form.event === "string" ? form.event.trim() : "";
      const parsed: unknown = text ? JSON.parse(text) : {};
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("the event must be a JSON object");
      given = parsed as Record<string, unknown>;
    } catch (error) {
      return c.html(documentOf(<MessagePage title="Fire a hook" message={`The event is not valid: ${errorMessage(error)}`} />), 400);
    }
    const set = await deps.hookSets.forProject(project);
    const hook = set.snapshot.get(id);
    if (!hook) return refuse(c, 404, `No hook ${id}${project ? ` in ${project}` : ""}.`);
    try {
      const event = parseEvent({
        session_id: "console",
        ...(project ? { cwd: project } : {}),
        ...given,
        event_type: given.event_type ?? hook.definition.events[0],
      });
      const result = await deps.fire(id, event);
      if (!result) return refuse(c, 404, `No hook ${id} for that event's project.`);
      return c.redirect(`/runs/${encodeURIComponent(result.decision.event_id)}`, 303);
    } catch (error) {
      if (error instanceof HookboxError) return c.html(documentOf(<MessagePage title="Fire a hook" message={error.message} />), 400);
      throw error;
    }
  });

  /** Hooks in shadow mode, what they would have blocked, and the replay reports kept. */
  app.get("/shadow", async (c) => {
    const sets = await Promise.all(deps.hookSets.projects().map((project) => deps.hookSets.forProject(project)));
    const monitored = [...new Set(sets.flatMap((set) => [...monitoredIds(set.snapshot.operator.hooks)]))].sort();
    const rows = shadowRows(await deps.recentEntries());
    const reports = (await deps.replayReports?.()) ?? [];
    return c.html(documentOf(<ShadowPage frame={await frame(c)} monitored={monitored} rows={rows} reports={reports} />));
  });

  app.get("/replays/:file", async (c) => {
    const file = c.req.param("file");
    const saved = ((await deps.replayReports?.()) ?? []).find((report) => report.file === file);
    if (!saved) return refuse(c, 404, `No replay report ${file} (kept ones: the Shadow page lists them).`);
    return c.html(documentOf(<ReplayReportPage frame={await frame(c)} saved={saved} />));
  });

  app.get("/health", async (c) => c.html(documentOf(<HealthPage frame={await frame(c)} facts={deps.health()} live={liveUrl("health")} />)));

  /** The live stream of a page: its view and filters say what it wants to hear. */
  app.get("/live", (c) => {
    const view = c.req.query("view");
    const filter = filterFrom((key) => c.req.query(key));
    const csrf = c.get("session").csrf;
    const since = c.req.query("since") ?? "";
    return deps.hub.stream(
      c,
      (change) => liveMessages(change, view, filter, csrf, deps),
      async () => {
        const changes: LiveChange[] = [{ kind: "approvals" }];
        // Events answered after the page's newest row (console.js skips a row it already shows).
        if (view === "runs")
          changes.push({
            kind: "events",
            groups: groupByEvent(await deps.recentEntries())
              .filter((group) => group.at > since)
              .slice(0, RUNS_SHOWN),
          });
        return changes.flatMap((change) => liveMessages(change, view, filter, csrf, deps));
      },
    );
  });

  app.notFound((c) => refuse(c, 404, "No such page."));
  return app;
}

/** A page's stream: its view, its filters, and (runs) the time of its newest row. */
function liveUrl(view: string, filter: RunFilter = {}, since?: string): string {
  const query = new URLSearchParams({ view, ...filter, ...(since !== undefined ? { since } : {}) });
  return `/live?${query.toString()}`;
}

function liveMessages(change: LiveChange, view: string | undefined, filter: RunFilter, csrf: string, deps: ConsoleDeps): LiveMessage[] {
  const pending = (): LiveMessage => ({ event: "pending", data: String(deps.approvals.list().length) });
  if (change.kind === "approvals") {
    return view === "approvals"
      ? [pending(), { event: "approvals", data: String(<PendingList pending={deps.approvals.list()} csrf={csrf} />) }]
      : [pending()];
  }
  if (change.kind === "events" && view === "runs") {
    const rows = change.groups.filter((group) => matchesFilter(group, filter)).map((group) => String(<RunRow group={group} />));
    return rows.length > 0 ? [{ event: "runs", data: rows.join("") }] : [];
  }
  if (change.kind === "tick" && view === "health") return [{ event: "health", data: String(<HealthBody facts={deps.health()} />) }];
  return [];
}
