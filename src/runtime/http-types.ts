// The HTTP exchange with a local listener, as a contract apart from RuntimeHost: what
// hookbox/client's transport and NetHost.request share, and all its typings need.

/** A unix socket, or a loopback TCP address. */
export type ListenTarget = { readonly unix: string } | { readonly hostname: string; readonly port: number };

export interface HttpReply {
  readonly status: number;
  readonly body: string;
}

/** One request to a local listener. `timeoutMs` bounds the whole exchange, connecting included. */
export interface HttpRequestInit {
  readonly method: string;
  readonly path: string;
  /** JSON text: sent with content-type application/json. */
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}
