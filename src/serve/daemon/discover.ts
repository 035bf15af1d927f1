import type { Locations } from "../../hooks/config/locations.ts";
import { identityDifference, type HookSetIdentity } from "../../decide/identity.ts";
import { operatorFileSource } from "../../decide/operator-source.ts";
import type { RuntimeHost } from "../../platform/index.ts";
import { DAEMON_ROUTES, type DaemonInfoV1 } from "../../core/wire/daemon.ts";
import { errorOfBody } from "../../core/wire/errors.ts";
import { AUTO_SOCKET_NAME, daemonSockets } from "./auto-socket.ts";
import type { AutoStartSettings } from "./lifecycle.ts";
import { distrust } from "../../platform/peer-trust.ts";

/** One socket where a daemon of this user may be, and what answered there. */
export interface FoundDaemon {
  readonly socket: string;
  /** What it says of itself; undefined when nothing answers (a stale socket). Claimed, not proven: see `distrusted`. */
  readonly info?: DaemonInfoV1;
  /** Set when something answered but not with /v1/daemon (a daemon of a build before it, or not Hookbox). */
  readonly problem?: string;
  /**
   * Why what answered is not proven to be this Hookbox (peer-trust.ts): a squatter, another
   * user's, another build, one started with code injected. emit never lets it decide an event.
   */
  readonly distrusted?: string;
  /** Why this platform or runtime cannot tell who answers (then emit asks no daemon at all). */
  readonly unverified?: string;
  /** Whether it serves the hook set an emit run here resolves and is proven genuine: the one emit would use. */
  readonly servesThisHookSet: boolean;
  /** The socket of the hook set an emit run here would start a daemon on. */
  readonly isAutoSocketHere: boolean;
}

/**
 * The daemons of this user beside the socket `emit` would use: the default (or --socket) one,
 * and every auto-started daemon's socket in the same directory.
 */
export async function findDaemons(
  host: Pick<RuntimeHost, "fs" | "net" | "env" | "uid" | "executablePath">,
  locations: Locations,
  identity: HookSetIdentity,
  explicitSocket: boolean,
): Promise<FoundDaemon[]> {
  const sockets = daemonSockets(locations, explicitSocket, identity, host);
  const dir = locations.socketPath.slice(0, locations.socketPath.lastIndexOf("/"));
  const paths = new Set<string>(sockets.ask);
  if (!explicitSocket)
    for (const entry of await host.fs.listDir(dir).catch(() => [])) if (AUTO_SOCKET_NAME.test(entry.name)) paths.add(`${dir}/${entry.name}`);
  const found: FoundDaemon[] = [];
  for (const socket of paths) {
    const kind = await host.fs.kind(socket);
    if (kind === "missing") continue;
    const base = { socket, isAutoSocketHere: socket === sockets.auto };
    let reply;
    let trust: { readonly distrusted?: string; readonly unverified?: string } = {};
    try {
      const init = { method: "GET", path: DAEMON_ROUTES.info, timeoutMs: 3000 };
      // Judged once answered only: what a squatter says of itself is shown (as claimed) to the person who asked.
      const me = { uid: host.uid(), env: host.env, decides: true };
      const exchanged = await host.net.requestWithPeer(socket, init, () => undefined);
      if ("unverifiable" in exchanged) {
        // Asked all the same: a person reading status or doctor on this platform still wants to know what runs.
        trust = { unverified: exchanged.unverifiable };
        reply = await host.net.request({ unix: socket }, init);
      } else if ("refused" in exchanged) {
        throw new Error("cannot happen: nothing was refused");
      } else {
        reply = exchanged.reply;
        const why = distrust(exchanged.peer, me, { answered: true });
        if (why) trust = { distrusted: why };
      }
    } catch {
      found.push({ ...base, servesThisHookSet: false });
      continue;
    }
    let body: unknown;
    try {
      body = JSON.parse(reply.body);
    } catch {
      found.push({ ...base, ...trust, servesThisHookSet: false, problem: `answered ${reply.status} without JSON: not a Hookbox daemon` });
      continue;
    }
    if (reply.status !== 200 || !looksLikeDaemonInfo(body)) {
      const error = errorOfBody(body);
      const problem = error
        ? `${error.code}: ${error.message}`
        : reply.status === 200
          ? "answered GET /v1/daemon with something that is not a Hookbox daemon's answer"
          : `answered ${reply.status}: a daemon of a build without GET /v1/daemon`;
      found.push({ ...base, ...trust, servesThisHookSet: false, problem });
      continue;
    }
    const info = body as DaemonInfoV1;
    found.push({
      ...base,
      ...trust,
      info,
      servesThisHookSet: !trust.distrusted && !trust.unverified && identityDifference(identity, info.identity) === undefined,
    });
  }
  return found;
}

/**
 * The fields everything here reads of a GET /v1/daemon answer (builds before and after this one
 * add others): enough to tell a daemon's answer from a squatter's reply of another shape.
 */
function looksLikeDaemonInfo(body: unknown): body is DaemonInfoV1 {
  const info = body as Partial<Record<keyof DaemonInfoV1, unknown>> | null;
  const identity = info?.identity as { build?: unknown } | null | undefined;
  return (
    typeof info === "object" &&
    info !== null &&
    info.v === 1 &&
    Number.isSafeInteger(info.pid) &&
    typeof info.origin === "string" &&
    typeof identity === "object" &&
    identity !== null &&
    typeof identity.build === "string"
  );
}

/** Whether an emit run here would start a daemon, and why not. */
export async function autoStartHere(
  host: Pick<RuntimeHost, "fs" | "env" | "daemon" | "executablePath" | "net">,
  locations: Locations,
  embeddedIds: readonly string[],
): Promise<{ readonly on: boolean; readonly why: string; readonly settings?: AutoStartSettings }> {
  if (host.env.HOOKBOX_NO_DAEMON === "1") return { on: false, why: "HOOKBOX_NO_DAEMON=1 is set: emit neither uses nor starts a daemon" };
  if (!host.executablePath()) return { on: false, why: "Hookbox runs from sources here: only its binary starts a daemon" };
  const unverifiable = await host.net.peersUnverifiable();
  if (unverifiable) return { on: false, why: `emit cannot verify a daemon here, so it uses none and starts none (${unverifiable})` };
  if (!host.daemon)
    return {
      on: false,
      why: "this platform gives the binary no flock(2) to start a daemon safely (docs/release.md#platforms): run hookbox serve yourself",
    };
  const view = await operatorFileSource({
    fs: host.fs,
    path: locations.operatorFile.path,
    explicit: locations.operatorFile.explicit,
    systemPolicy: locations.system,
    builtinFlags: locations.builtin,
    embeddedIds,
    keepLastGood: false,
  }).read();
  if (view.status.state === "unusable")
    return { on: false, why: `the operator file ${locations.operatorFile.path} is invalid: no daemon is started until it is fixed` };
  const settings = view.operator.daemon;
  if (!settings.auto_start) return { on: false, why: `daemon.auto_start is false in ${locations.operatorFile.path}`, settings };
  return {
    on: true,
    why: `a daemon emit starts exits after ${formatSeconds(settings.idle_exit_seconds)} without events (daemon.idle_exit_seconds)`,
    settings,
  };
}

export function formatSeconds(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}
