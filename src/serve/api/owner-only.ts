import type { MiddlewareHandler } from "hono";
import type { ConnectionInfo } from "../../platform/index.ts";
import { errorResponse } from "./error-response.ts";

/**
 * Only the daemon's owner may use it. The socket's directory (0700) and the socket (0600) keep
 * other users out already; this is the check that does not depend on modes someone might loosen
 * or a --socket in a shared directory: the kernel's record of who connected (SO_PEERCRED,
 * getpeereid), read by the listener once per connection and handed over as the request's env.
 */
export function ownerOnly(owner: number, countError: (code: string) => void): MiddlewareHandler {
  return async (c, next) => {
    const peer = (c.env as ConnectionInfo | undefined)?.peer;
    // A listener that cannot read credentials (loopback TCP with its token, node:http) sets none.
    if (peer === undefined) return next();
    if ("error" in peer) {
      countError("peer_refused");
      return errorResponse(
        c,
        "peer_refused",
        `this Hookbox daemon serves uid ${owner} only, and could not tell who connected (${peer.error}): refused`,
      );
    }
    if (peer.uid !== owner) {
      countError("peer_refused");
      const who = peer.pid ? `process ${peer.pid} (uid ${peer.uid})` : `a process of uid ${peer.uid}`;
      return errorResponse(
        c,
        "peer_refused",
        `this Hookbox daemon serves uid ${owner} only; ${who} may not use it. Each user runs their own: hookbox emit starts one for its user`,
      );
    }
    return next();
  };
}
