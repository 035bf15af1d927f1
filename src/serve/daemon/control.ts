import type { Hono } from "hono";
import type { Evaluator } from "../../decide/evaluator.ts";
import type { HookSetIdentity } from "../../decide/identity.ts";
import type { FetchHandler, Listener, RuntimeHost } from "../../platform/index.ts";
import type { DaemonControl } from "../api/deps.ts";
import type { DaemonInfoV1 } from "../../core/wire/daemon.ts";
import type { DaemonOptions } from "./daemon.ts";
import type { Lifecycle } from "./lifecycle.ts";
import { upgradeOf } from "./succession.ts";

/** What counts as use of a daemon: events (agents', native ones, a hook fired by hand). */
const EVENT_PATH = /^\/v1\/(?:agents\/[^/?]+|events\/[^/?]+|hooks\/[^/?]+\/fire)(?:\?|$)/;

/**
 * The app as the unix socket serves it, with every event counted in flight for the lifecycle.
 * A request refused as another hook set's (409) was not a use: a daemon nobody can use must
 * still reach its idle time.
 */
export function countingEvents(app: Hono, lifecycle: Lifecycle): FetchHandler {
  return async (request, connection) => {
    const path = request.url.slice(request.url.indexOf("/", request.url.indexOf("//") + 2));
    if (request.method !== "POST" || !EVENT_PATH.test(path)) return app.fetch(request, connection);
    const end = lifecycle.begin();
    let status = 500;
    try {
      const response = await app.fetch(request, connection);
      status = response.status;
      return response;
    } finally {
      end(status !== 409);
    }
  };
}

interface ControlDeps {
  readonly host: RuntimeHost;
  readonly options: DaemonOptions;
  readonly identity: HookSetIdentity;
  readonly lifecycle: Lifecycle;
  readonly evaluator: Evaluator;
  readonly listeners: readonly Listener[];
  readonly stop: (why: string) => void;
  /** A session starts in this project (SessionStart answered): build its hooks' guests now. */
  readonly warm: (project: string | undefined) => void;
}

/** GET /v1/daemon and the requests that end a daemon, over its lifecycle. */
export function daemonControl(deps: ControlDeps): DaemonControl {
  const { host, options, lifecycle } = deps;
  return {
    info: async (): Promise<DaemonInfoV1> => {
      const state = lifecycle.state();
      return {
        v: 1,
        pid: host.pid,
        version: options.version,
        identity: deps.identity,
        origin: options.origin,
        socket: options.locations.socketPath,
        started_at: new Date(state.startedAt).toISOString(),
        idle_exit_seconds: state.idleSeconds ?? null,
        last_event_at: state.lastEventAt !== undefined ? new Date(state.lastEventAt).toISOString() : null,
        events: state.events,
        in_flight: state.inFlight,
        projects: deps.evaluator.hookSets.projects().map((project) => project ?? null),
        peer_check: deps.listeners[0]?.peerCredentials ? "uid" : "permissions",
        retiring: state.retiring ?? null,
        rss_bytes: host.sandbox.rssBytes(host.pid) ?? null,
        open_sessions: state.sessions,
      };
    },
    stop: (reason) => deps.stop(reason),
    refused: (caller) => {
      if (options.origin === "auto" && upgradeOf(deps.identity, caller))
        retire(`an emit of build ${(caller as HookSetIdentity).build} asked for the same hook set`);
    },
    retire: (reason) => retire(reason),
    answered: (event) => {
      lifecycle.sessionEvent(event.event_type, event.session_id);
      if (event.event_type === "SessionStart") deps.warm(event.project);
    },
  };

  function retire(reason: string): void {
    if (lifecycle.state().retiring === undefined) options.log(`retiring: ${reason}`);
    lifecycle.retire(reason);
  }
}
