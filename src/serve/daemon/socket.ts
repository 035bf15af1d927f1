import { HookboxError } from "../../core/errors.ts";
import type { FileLock, RuntimeHost } from "../../platform/index.ts";
import { distrust } from "../../platform/peer-trust.ts";

/**
 * Prepare the socket path: its directory private (0700), no live daemon already on it, a stale
 * socket from a crashed daemon removed. Anything else at the path is left alone and refused.
 */
export async function claimSocketPath(host: RuntimeHost, path: string): Promise<void> {
  const dir = path.slice(0, path.lastIndexOf("/")) || "/";
  await host.fs.mkdirp(dir, 0o700, true);
  const kind = await host.fs.kind(path);
  if (kind === "missing") return;
  if (kind !== "socket")
    throw new HookboxError("conflict", `${path} exists and is not a socket (${kind}); remove it or choose another path with --socket`);
  const init = { method: "GET", path: "/healthz", timeoutMs: 1000 };
  const alive = await host.net
    .requestWithPeer(path, init, () => undefined)
    .then((exchanged) =>
      "unverifiable" in exchanged
        ? host.net.request({ unix: path }, init).then(() => undefined)
        : "refused" in exchanged
          ? exchanged.refused
          : distrust(exchanged.peer, { uid: host.uid(), env: host.env, decides: false }, { answered: true }),
    )
    .then((untrusted) => ({ untrusted }))
    .catch(() => undefined);
  if (alive?.untrusted)
    throw new HookboxError(
      "conflict",
      `something that is not a verified Hookbox daemon answers on ${path} (${alive.untrusted}); emit does not use it. Stop it (ss -xlp shows what listens there) or remove the socket, then start again`,
    );
  if (alive)
    throw new HookboxError("conflict", `another Hookbox daemon is already serving on ${path}; stop it first (or use --socket for a second one)`);
  await host.fs.remove(path);
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** --listen HOST:PORT (or --console's), loopback only: the API and the console have no business on a network interface. */
export function parseListen(value: string, flag = "--listen"): { hostname: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(value);
  if (!match) throw new HookboxError("usage", `${flag} takes HOST:PORT (e.g. 127.0.0.1:8787), got ${value}`);
  const hostname = (match[1] as string).replace(/^\[|\]$/g, "");
  const port = Number(match[2]);
  if (!LOOPBACK.has(hostname)) throw new HookboxError("usage", `${flag} must be a loopback address (127.0.0.1, ::1 or localhost), got ${hostname}`);
  if (port > 65535) throw new HookboxError("usage", `${flag} port must be 0–65535 (0 picks a free port, shown in the log), got ${port}`);
  return { hostname, port };
}

/**
 * The lock beside a socket (`<socket>.lock`): whoever holds it is the one daemon of that socket.
 * A daemon auto-started by `emit` inherited it (descriptor `inheritedFd`); `hookbox serve` takes
 * it, and refuses to start while another holds it. Where locks are not available (Hookbox run
 * from sources) only the liveness check of claimSocketPath stands between two daemons.
 */
export async function lockSocketPath(host: RuntimeHost, path: string, inheritedFd: number | undefined): Promise<FileLock | undefined> {
  if (!host.daemon) return undefined;
  if (inheritedFd !== undefined) {
    if (!host.daemon.holdInheritedLock(inheritedFd))
      throw new HookboxError(
        "usage",
        `--lock-fd ${inheritedFd} is not a lock this process holds (it is passed by emit when it starts a daemon, not by hand)`,
      );
    return { fd: inheritedFd, release: () => undefined };
  }
  await host.fs.mkdirp(path.slice(0, path.lastIndexOf("/")) || "/", 0o700, true);
  const lock = await host.daemon.tryLock(`${path}.lock`);
  if (!lock)
    throw new HookboxError(
      "conflict",
      `another Hookbox daemon is already serving on ${path}, or starting (it holds ${path}.lock); stop it first (hookbox daemon stop) or choose another path with --socket`,
    );
  return lock;
}
