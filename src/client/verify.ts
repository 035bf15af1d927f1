import { distrust } from "../platform/peer-trust.ts";
import type { ClientPeerIO } from "../platform/client-peer.ts";
import type { ClientTransport } from "../platform/client.ts";
import type { FileIdentity } from "../platform/peer-types.ts";
import { HookboxClientError } from "./errors.ts";
import type { ResolvedOptions } from "./options.ts";

/**
 * The transport hookbox/client sends through on a unix socket, checking who is there first
 * (SECURITY.md, "Who answers on the socket"):
 * - always: the socket file is a socket and belongs to this user — another user's socket (a
 *   careless --socket in a shared directory) never gets an event;
 * - with verifyPeer: every request's answer comes from the Hookbox binary the caller trusts,
 *   run by this user with no code injected, holding that very connection (peer-trust.ts judges
 *   what the runtime reads) — a process of the agent's on the socket path is refused.
 * Where verifyPeer is "auto" and cannot be done here, the owner check is all there is, as
 * `describe` says.
 */
export function guardedTransport(
  base: ClientTransport,
  options: ResolvedOptions,
  io: ClientPeerIO,
  env: Readonly<Record<string, string | undefined>>,
): ClientTransport & { readonly describe: () => Promise<string> } {
  const check = options.peerCheck;
  let trusted: Promise<FileIdentity | string> | undefined;
  /** The binary answers must come from, or why none can be proven here. */
  const binary = (): Promise<FileIdentity | string> =>
    (trusted ??= (async () => {
      if (check.mode === "off") return "verifyPeer is off";
      if (io.peersUnverifiable) return io.peersUnverifiable;
      if (check.binary)
        return io.fileIdentity(check.binary).catch((error: Error) => `the binary given to verifyPeer cannot be read (${error.message})`);
      for (const dir of (env.PATH ?? "").split(":").filter((entry) => entry.startsWith("/"))) {
        const found = await io.fileIdentity(`${dir}/hookbox`).catch(() => undefined);
        if (found) return found;
      }
      return "no hookbox binary on PATH to compare the daemon with (give verifyPeer: { binary })";
    })());

  const transport: ClientTransport = async (target, init) => {
    if (!("unix" in target)) return base(target, init);
    const path = target.unix;
    const found = await io.owner(path);
    if (found && found.kind !== "socket") throw new HookboxClientError("daemon_unavailable", `${path} is not a socket: no Hookbox daemon there`);
    if (found && io.uid !== undefined && found.uid !== io.uid)
      throw new HookboxClientError(
        "peer_refused",
        `${path} belongs to uid ${found.uid}, not to this process (uid ${io.uid}): a daemon's socket is its owner's, and no event goes to another user's`,
      );
    const self = await binary();
    if (typeof self === "string") {
      if (check.mode === "required") throw new HookboxClientError("peer_refused", `cannot prove who answers on ${path}: ${self}`);
      return base(target, init);
    }
    const { reply, peer } = await io.requestWithPeer(path, init, self);
    const why = distrust(peer, { uid: io.uid, env, decides: false }, { answered: true });
    if (why)
      throw new HookboxClientError(
        "peer_refused",
        `what answers on ${path} is not the Hookbox daemon this client trusts (${why}); its answer is not used`,
      );
    return reply;
  };
  return Object.assign(transport, {
    describe: async () => {
      const self = await binary();
      return typeof self === "string" ? `the socket file's owner only (${self})` : `each answer proven to come from ${self.path}`;
    },
  });
}
