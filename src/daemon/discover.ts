import type { Locations } from "../config/locations.ts";
import { identityDifference, type HookSetIdentity } from "../evaluator/identity.ts";
import { operatorFileSource } from "../evaluator/operator-source.ts";
import type { RuntimeHost } from "../runtime/index.ts";
import { DAEMON_ROUTES, type DaemonInfoV1 } from "../wire/daemon.ts";
import { errorOfBody } from "../wire/errors.ts";
import { AUTO_SOCKET_NAME, daemonSockets } from "./auto-socket.ts";
import type { AutoStartSettings } from "./lifecycle.ts";

/** One socket where a daemon of this user may be, and what answered there. */
export interface FoundDaemon {
  readonly socket: string;
  /** What it says of itself; undefined when nothing answers (a stale socket). */
  readonly info?: DaemonInfoV1;
  /** Set when something answered but not with /v1/daemon (a daemon of a build before it, or not Hookbox). */
  readonly problem?: string;
  /** Whether it serves the hook set an emit run here resolves (the one emit would use). */
  readonly servesThisHookSet: boolean;
  /** The socket of the hook set an emit run here would start a daemon on. */
  readonly isAutoSocketHere: boolean;
}

/**
 * The daemons of this user beside the socket `emit` would use: the default (or --socket) one,
 * and every auto-started daemon's socket in the same directory.
 */
export async function findDaemons(host: Pick<RuntimeHost, "fs" | "net">, locations: Locations, identity: HookSetIdentity, explicitSocket: boolean): Promise<FoundDaemon[]> {
  const sockets = daemonSockets(locations, explicitSocket, identity);
  const dir = locations.socketPath.slice(0, locations.socketPath.lastIndexOf("/"));
  const paths = new Set<string>(sockets.ask);
  if (!explicitSocket) for (const entry of await host.fs.listDir(dir).catch(() => [])) if (AUTO_SOCKET_NAME.test(entry.name)) paths.add(`${dir}/${entry.name}`);
  const found: FoundDaemon[] = [];
  for (const socket of paths) {
    const kind = await host.fs.kind(socket);
    if (kind === "missing") continue;
    const base = { socket, isAutoSocketHere: socket === sockets.auto };
    let reply;
    try {
      reply = await host.net.request({ unix: socket }, { method: "GET", path: DAEMON_ROUTES.info, timeoutMs: 3000 });
    } catch {
      found.push({ ...base, servesThisHookSet: false });
      continue;
    }
    let body: Partial<DaemonInfoV1>;
    try {
      body = JSON.parse(reply.body) as typeof body;
    } catch {
      found.push({ ...base, servesThisHookSet: false, problem: `answered ${reply.status} without JSON: not a Hookbox daemon` });
      continue;
    }
    if (reply.status !== 200 || body.v !== 1) {
      const error = errorOfBody(body);
      found.push({ ...base, servesThisHookSet: false, problem: error ? `${error.code}: ${error.message}` : `answered ${reply.status}: a daemon of a build without GET /v1/daemon` });
      continue;
    }
    const info = body as DaemonInfoV1;
    found.push({ ...base, info, servesThisHookSet: identityDifference(identity, info.identity) === undefined });
  }
  return found;
}

/** Whether an emit run here would start a daemon, and why not. */
export async function autoStartHere(host: Pick<RuntimeHost, "fs" | "env" | "daemon" | "executablePath">, locations: Locations, embeddedIds: readonly string[]): Promise<{ readonly on: boolean; readonly why: string; readonly settings?: AutoStartSettings }> {
  if (host.env.HOOKBOX_NO_DAEMON === "1") return { on: false, why: "HOOKBOX_NO_DAEMON=1 is set: emit neither uses nor starts a daemon" };
  if (!host.executablePath()) return { on: false, why: "Hookbox runs from sources here: only its binary starts a daemon" };
  if (!host.daemon) return { on: false, why: "this platform gives the binary no flock(2) to start a daemon safely (docs/release.md#platforms): run hookbox serve yourself" };
  const view = await operatorFileSource({ fs: host.fs, path: locations.operatorFile.path, explicit: locations.operatorFile.explicit, builtinFlags: locations.builtin, embeddedIds, keepLastGood: false }).read();
  if (view.status.state === "unusable") return { on: false, why: `the operator file ${locations.operatorFile.path} is invalid: no daemon is started until it is fixed` };
  const settings = view.operator.daemon;
  if (!settings.auto_start) return { on: false, why: `daemon.auto_start is false in ${locations.operatorFile.path}`, settings };
  return { on: true, why: `a daemon emit starts exits after ${formatSeconds(settings.idle_exit_seconds)} without events (daemon.idle_exit_seconds)`, settings };
}

export function formatSeconds(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}
