// The HTTP exchange with a local listener, as a contract apart from RuntimeHost: what
// hookbox/client's transport and NetHost.request share, and all its typings need.

/** A unix socket, or a loopback TCP address. */
export type ListenTarget = { readonly unix: string } | { readonly hostname: string; readonly port: number };

export interface HttpReply {
  readonly status: number;
  readonly body: string;
}

/**
 * The response header in which a server on a unix socket names the descriptor its end of the
 * connection has in its process (ConnectionInfo.fd): a hint for bun-peer.ts, which checks it.
 */
export const CONNECTION_FD_HEADER = "x-hookbox-connection-fd";

/** One request to a local listener. `timeoutMs` bounds the whole exchange, connecting included. */
export interface HttpRequestInit {
  readonly method: string;
  readonly path: string;
  /** JSON text: sent with content-type application/json. */
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}
