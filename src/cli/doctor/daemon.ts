import { autoStartHere, findDaemons, formatSeconds } from "../../serve/daemon/discover.ts";
import { BUILD_ID } from "../../core/version/index.ts";
import type { Locations } from "../../hooks/config/locations.ts";
import { identityOf } from "../../decide/identity.ts";
import type { HealthReport } from "../../serve/api/deps.ts";
import type { CliContext } from "../context.ts";
import { whyUnreachable } from "../daemon-client.ts";
import { fail, note, pass, type DoctorCheck } from "./check.ts";

/**
 * Whether a daemon serves the hook set `emit` resolves here — one a person started, or the one
 * emit started — and if none does, whether the next emit starts one (and why not).
 */
export async function daemonCheck(ctx: CliContext, locations: Locations, embeddedIds: readonly string[]): Promise<DoctorCheck> {
  const identity = identityOf(locations, BUILD_ID, ctx.host.homeDir());
  const found = await findDaemons(ctx.host, locations, identity, false);
  const auto = await autoStartHere(ctx.host, locations, embeddedIds);
  // What answers where emit asks but is not proven to be this Hookbox: a squatter (one command
  // of the agent's), another user's, another build, one started with code injected.
  const impostor = found.find((d) => d.distrusted && (d.socket === locations.socketPath || d.isAutoSocketHere));
  if (impostor) {
    const claims = impostor.info ? ` (it claims to be pid ${impostor.info.pid})` : "";
    return fail(
      "daemon",
      `${impostor.socket}: NOT A VERIFIED HOOKBOX DAEMON — ${impostor.distrusted}${claims}. emit never lets it decide an event (it evaluates each one itself); find what listens there (ss -xlp) and stop it, or remove the socket`,
    );
  }
  const unverified = found.find((d) => d.unverified && d.info);
  if (unverified?.info)
    return note(
      "daemon",
      `pid ${unverified.info.pid} on ${unverified.socket} is not used by emit here: ${unverified.unverified}. emit evaluates every event in its own process`,
    );
  const foreign = found.find((d) => d.problem && d.socket === locations.socketPath);
  if (foreign) return fail("daemon", `something on ${foreign.socket} ${foreign.problem}; stop it or remove the socket`);
  if (!found.some((d) => d.info && d.socket === locations.socketPath)) {
    // Another user's socket, or a directory this user may not enter, is not "no daemon": say so.
    const why = await whyUnreachable(ctx.host, locations.socketPath, "no answer");
    if (why.code === "permission_denied") return fail("daemon", why.message);
  }
  const serving = found.find((d) => d.servesThisHookSet && d.info);
  if (serving?.info) {
    const info = serving.info;
    const health = await ctx.host.net
      .request({ unix: serving.socket }, { method: "GET", path: "/healthz", timeoutMs: 10_000 })
      .catch(() => undefined);
    const report = health ? (JSON.parse(health.body) as Partial<HealthReport>) : undefined;
    if (report?.status !== "ok") {
      const failing = Object.entries(report?.checks ?? {})
        .filter(([, check]) => !check.ok)
        .map(([name]) => name);
      return fail(
        "daemon",
        `pid ${info.pid} serves the same hook set but is degraded (${failing.join(", ") || "no health report"}): GET /healthz on ${serving.socket} says why`,
      );
    }
    const who =
      info.origin === "auto"
        ? `started by emit, exits after ${formatSeconds(info.idle_exit_seconds ?? 0)} without events`
        : "started with hookbox serve";
    const last = info.last_event_at
      ? `last event ${formatSeconds(Math.max(0, Math.round((Date.now() - Date.parse(info.last_event_at)) / 1000)))} ago`
      : "no event yet";
    return pass(
      "daemon",
      `pid ${info.pid} on ${serving.socket} (${who}) serves the same hook set (build ${BUILD_ID}); ${last}; callers checked by ${info.peer_check === "uid" ? "uid" : "the socket's permissions only"}`,
    );
  }
  const others = found.filter((d) => d.info).map((d) => `pid ${d.info?.pid} on ${d.socket}`);
  const besides = others.length ? ` (${others.join(", ")} serve${others.length === 1 ? "s" : ""} other hook sets)` : "";
  if (auto.on) return note("daemon", `none serves this hook set now${besides}: the next emit answers itself and starts one (${auto.why})`);
  if (others.length && locations.socketPath && found.some((d) => d.info && d.socket === locations.socketPath)) {
    return fail(
      "daemon",
      `the daemon on ${locations.socketPath} serves another hook set than emit resolves here (other flags, operator file or build), and no daemon is started: ${auto.why}. emit evaluates every event in its own process; restart that daemon with the same flags, or turn auto-start on`,
    );
  }
  return note("daemon", `none serves this hook set${besides}, and none is started: ${auto.why}. emit evaluates every event in its own process`);
}
