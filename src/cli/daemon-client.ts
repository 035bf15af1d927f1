import type { Locations } from "../hooks/config/locations.ts";
import { distrust } from "../platform/peer-trust.ts";
import { HookboxError, fromOsError, osErrorOf } from "../core/errors.ts";
import type { HttpReply, HttpRequestInit, RuntimeHost } from "../platform/index.ts";
import { errorOfBody } from "../core/wire/errors.ts";

/**
 * One JSON request to the daemon on its unix socket; errors say what is at the socket path and
 * how to get a daemon. What answers must be proven to be this Hookbox (peer-trust.ts) where the
 * platform can tell: a squatter on the socket must not show a person fake runs or approvals.
 */
export async function daemonRequest<T>(
  host: RuntimeHost,
  locations: Locations,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs = 5000,
): Promise<T> {
  const socket = locations.socketPath;
  let reply;
  try {
    reply = await verifiedRequest(host, socket, { method, path, timeoutMs, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  } catch (error) {
    if (error instanceof HookboxError) throw error;
    throw await whyUnreachable(host, socket, (error as Error).message);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply.body);
  } catch {
    throw new HookboxError(
      "daemon_unavailable",
      `something answers on ${socket}, but not a Hookbox daemon (HTTP ${reply.status}, a body that is not JSON); point --socket or HOOKBOX_SOCKET at the daemon's socket`,
    );
  }
  const error = reply.status >= 400 ? errorOfBody(parsed) : undefined;
  if (error) throw new HookboxError(error.code, error.message, error.details);
  if (reply.status >= 400) throw new HookboxError("internal", `the daemon answered ${reply.status} without an error body this build knows`);
  return parsed as T;
}

/**
 * The reply of a proven daemon; a HookboxError naming why when what answered is not one. Where
 * this platform cannot tell (docs/release.md#platforms), the reply as it came: a person's
 * command there relies on the socket directory's permissions, as it always did.
 */
async function verifiedRequest(host: RuntimeHost, socket: string, init: HttpRequestInit): Promise<HttpReply> {
  const me = { uid: host.uid(), env: host.env, decides: false };
  const exchanged = await host.net.requestWithPeer(socket, init, (peer) => distrust(peer, me));
  if ("unverifiable" in exchanged) return host.net.request({ unix: socket }, init);
  const why = "refused" in exchanged ? exchanged.refused : distrust(exchanged.peer, me, { answered: true });
  if (why || "refused" in exchanged)
    throw new HookboxError(
      "daemon_unavailable",
      `what answers on ${socket} is not a verified Hookbox daemon (${why}); nothing it says is used. Stop it (ss -xlp shows what listens there) or remove the socket, then start the daemon with \`hookbox serve\``,
    );
  return exchanged.reply;
}

const START = "start one with `hookbox serve` (or point --socket or HOOKBOX_SOCKET at a running one's socket)";

/**
 * A connection that failed, explained by what is at the socket path (the runtimes' own messages,
 * "Failed to connect", do not tell): nothing (no daemon), a path this user may not reach, another
 * user's socket, something that is not a socket, or a socket nothing answers on.
 */
export async function whyUnreachable(host: RuntimeHost, socket: string, cause: string): Promise<HookboxError> {
  let found;
  try {
    found = await host.fs.owner(socket);
  } catch (error) {
    if (osErrorOf(error)?.code === "ENOENT") return new HookboxError("daemon_unavailable", `no Hookbox daemon: nothing at ${socket}; ${START}`);
    return fromOsError(error, socket) ?? new HookboxError("daemon_unavailable", `cannot reach ${socket} (${cause}); ${START}`);
  }
  if (found.kind !== "socket")
    return new HookboxError(
      "daemon_unavailable",
      `${socket} is a ${found.kind}, not a daemon's socket; point --socket or HOOKBOX_SOCKET at the daemon's socket`,
    );
  const me = host.uid();
  if (me !== undefined && found.uid !== me) {
    return new HookboxError(
      "permission_denied",
      `${socket} belongs to another user (uid ${found.uid}; you are ${me}): a daemon's socket is private to whoever started it; start your own with \`hookbox serve --socket <a path of yours>\``,
    );
  }
  return new HookboxError(
    "daemon_unavailable",
    `no Hookbox daemon answers on ${socket} (${cause}): the socket is left over from one that stopped; ${START}, which replaces it`,
  );
}
