import type { Command } from "commander";
import type { Locations } from "../hooks/config/locations.ts";
import { daemonSockets } from "../serve/daemon/auto-socket.ts";
import { startDaemon } from "../serve/daemon/auto-start.ts";
import { autoStartHere, findDaemons, formatSeconds, type FoundDaemon } from "../serve/daemon/discover.ts";
import { upgradeOf } from "../serve/daemon/succession.ts";
import { HookboxError } from "../core/errors.ts";
import { identityOf } from "../decide/identity.ts";
import { BUILD_ID } from "../core/version/index.ts";
import { DAEMON_ROUTES } from "../core/wire/daemon.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { addHookOptions, locationsFrom } from "./setup.ts";
import { plural } from "../core/text/plural.ts";

interface DaemonFlags {
  readonly hooks?: string[];
  readonly config?: string;
  readonly builtin?: string[];
  readonly socket?: string;
  readonly json?: boolean;
}

/** How long stop and restart wait for a daemon to go, or to come up. */
const WAIT_MS = 20_000;

/** `hookbox daemon status|stop|restart`: the daemons of this user, above all the one emit uses here. */
export function registerDaemon(program: Command, ctx: CliContext, setExit: (code: number) => void, runtime: HookRuntimeFactory): void {
  const daemon = program
    .command("daemon")
    .description("The background daemons of this user: status, stop, restart (emit starts one when none answers)")
    .addHelpText("after", "\nWith --hooks, --builtin or --config, as the agent's hook command has them: the daemon that emit command uses.");
  const sub = (name: string, description: string): Command =>
    addHookOptions(
      daemon.command(name).description(description).option("--socket <path>", "only the daemon on this socket").option("--json", "print JSON"),
    );

  sub(
    "status",
    "Show each daemon: pid, build, who started it, whether it serves the hook set emit resolves here, idle time, last event, memory",
  ).action(async (flags: DaemonFlags) => {
    const { found, auto, socket } = await survey(ctx, flags, runtime);
    // socket: where an emit run here starts its daemon (and asks after the default socket).
    if (flags.json)
      await ctx.out(`${JSON.stringify({ v: 1, auto_start: { on: auto.on, why: auto.why, socket }, daemons: found.map(toJson) }, null, 2)}\n`);
    else await ctx.out(`${describe(found, auto)}\n`);
    setExit(EXIT.ok);
  });

  sub("stop", "Stop the daemons (requests in flight finish first); the next emit starts one again unless auto-start is off").action(
    async (flags: DaemonFlags) => {
      const { found } = await survey(ctx, flags, runtime);
      const stopped = await stopAll(
        ctx,
        found.filter((d) => d.info),
      );
      if (flags.json) await ctx.out(`${JSON.stringify({ v: 1, stopped }, null, 2)}\n`);
      else await ctx.out(`${stopped.length === 0 ? "no daemon was running" : stopped.map((s) => `stopped pid ${s.pid} (${s.socket})`).join("\n")}\n`);
      setExit(EXIT.ok);
    },
  );

  sub("restart", "Stop the auto-started daemon of the hook set emit resolves here (any build) and start a fresh one").action(
    async (flags: DaemonFlags) => {
      const { found, auto, locations, socket } = await survey(ctx, flags, runtime);
      if (!auto.on || !auto.settings) throw new HookboxError("conflict", `no daemon is started here: ${auto.why}`);
      const identity = identityOf(locations, BUILD_ID, ctx.host.homeDir());
      const mine = found.filter((d) => d.info?.origin === "auto" && (d.servesThisHookSet || upgradeOf(identity, d.info.identity)));
      const stopped = await stopAll(ctx, mine);
      const started = await startDaemon(ctx.host, socket, locations, auto.settings);
      if (!started.started) throw new HookboxError("conflict", `could not start a daemon on ${socket}: ${started.why}`);
      const info = await waitFor(
        () => findDaemons(ctx.host, locations, identity, flags.socket !== undefined).then((all) => all.find((d) => d.socket === socket && d.info)),
        `the daemon on ${socket} to answer (see ${locations.dataDir}/daemon.log)`,
      );
      if (flags.json) await ctx.out(`${JSON.stringify({ v: 1, stopped, started: toJson(info) }, null, 2)}\n`);
      else
        await ctx.out(
          `${stopped.map((s) => `stopped pid ${s.pid}`).join("\n")}${stopped.length ? "\n" : ""}started pid ${info.info?.pid} on ${socket}\n`,
        );
      setExit(EXIT.ok);
    },
  );
}

async function survey(
  ctx: CliContext,
  flags: DaemonFlags,
  runtime: HookRuntimeFactory,
): Promise<{ found: FoundDaemon[]; auto: Awaited<ReturnType<typeof autoStartHere>>; locations: Locations; socket: string }> {
  const locations = locationsFrom(ctx, flags);
  const identity = identityOf(locations, BUILD_ID, ctx.host.homeDir());
  const found = await findDaemons(ctx.host, locations, identity, flags.socket !== undefined);
  const auto = await autoStartHere(ctx.host, locations, [...runtime.embedded().keys()]);
  const socket = daemonSockets(locations, flags.socket !== undefined, identity, ctx.host).auto;
  return { found, auto, locations, socket };
}

/** Ask each daemon to stop and wait until its socket is gone (requests in flight finish first). */
export async function stopAll(ctx: CliContext, daemons: readonly FoundDaemon[]): Promise<{ pid: number; socket: string }[]> {
  const stopped: { pid: number; socket: string }[] = [];
  for (const daemon of daemons) {
    if (!daemon.info) continue;
    await ctx.host.net.request({ unix: daemon.socket }, { method: "POST", path: DAEMON_ROUTES.stop, timeoutMs: 5000 }).catch(() => undefined);
    // Gone once its socket is: it removes it before finishing what is in flight.
    await waitFor(async () => ((await ctx.host.fs.kind(daemon.socket)) === "missing" ? true : undefined), `pid ${daemon.info.pid} to stop`);
    stopped.push({ pid: daemon.info.pid, socket: daemon.socket });
  }
  return stopped;
}

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new HookboxError("internal", `gave up waiting ${WAIT_MS / 1000} s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function toJson(daemon: FoundDaemon): Record<string, unknown> {
  return {
    socket: daemon.socket,
    serves_this_hook_set: daemon.servesThisHookSet,
    // Why emit does not trust what answers there (then `info` is only what it claims of itself).
    ...(daemon.distrusted ? { distrusted: daemon.distrusted } : {}),
    ...(daemon.unverified ? { unverified: daemon.unverified } : {}),
    ...(daemon.info ? { info: daemon.info } : {}),
    ...(daemon.problem ? { problem: daemon.problem } : { ...(daemon.info ? {} : { problem: "nothing answers: a stale socket" }) }),
  };
}

function describe(found: readonly FoundDaemon[], auto: { on: boolean; why: string }): string {
  const lines = found.map((daemon) => {
    const trust = daemon.distrusted
      ? `  NOT VERIFIED — emit does not use it: ${daemon.distrusted}`
      : daemon.unverified
        ? `  not verified (emit uses no daemon here): ${daemon.unverified}`
        : undefined;
    if (!daemon.info)
      return [
        `${daemon.socket}: ${daemon.problem ?? "nothing answers (a stale socket, removed by the next daemon that starts there)"}`,
        ...(trust ? [trust] : []),
      ].join("\n");
    const info = daemon.info;
    const ago = (iso: string | null): string =>
      iso === null ? "none yet" : `${formatSeconds(Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000)))} ago`;
    return [
      `pid ${info.pid} on ${daemon.socket}${daemon.distrusted ? " (as it claims)" : ""}`,
      ...(trust ? [trust] : []),
      `  ${info.origin === "auto" ? "started by emit" : "started with hookbox serve"}, build ${info.identity.build}, up since ${info.started_at}`,
      ...(trust
        ? []
        : [
            `  ${daemon.servesThisHookSet ? "serves the hook set emit resolves here" : "serves another hook set than emit resolves here (other flags, operator file or build)"}`,
          ]),
      `  last event ${ago(info.last_event_at)} (${plural(info.events, "event")}, ${info.in_flight} in flight); ${info.idle_exit_seconds === null ? "runs until stopped" : `exits after ${formatSeconds(info.idle_exit_seconds)} without events${info.open_sessions ? `, once ${info.open_sessions === 1 ? "its open agent session ends" : `its ${info.open_sessions} open agent sessions end`}` : ""}`}${info.retiring ? ` — retiring: ${info.retiring}` : ""}`,
      `  ${info.projects.length} project${info.projects.length === 1 ? "" : "s"} loaded; ${info.rss_bytes !== null ? `${(info.rss_bytes / 2 ** 20).toFixed(1)} MiB resident (workers not counted)` : "resident size unknown"}; callers checked by ${info.peer_check === "uid" ? "uid (the kernel's peer credentials)" : "the socket's permissions only"}`,
    ].join("\n");
  });
  const serving = found.some((d) => d.servesThisHookSet);
  return [
    ...(lines.length ? lines : ["no daemon running"]),
    `auto-start: ${auto.on ? "on" : "off"} — ${auto.why}${!serving && auto.on ? " (none serves this hook set now: the next emit starts one)" : ""}`,
  ].join("\n");
}
