import type { ListenTarget } from "../runtime/http-types.ts";
import type { ClientTransport } from "../runtime/client.ts";
import { defaultSocketPath, LOCATION_VARIABLES } from "../config/locations.ts";

export interface ClientOptions {
  /** The daemon's unix socket. Default: where `hookbox emit` looks ($HOOKBOX_SOCKET, else $XDG_RUNTIME_DIR/hookbox/hookbox.sock, else ~/.hookbox/run/hookbox.sock). */
  readonly socket?: string;
  /** The daemon's loopback TCP listener instead (`hookbox serve --listen`): http://127.0.0.1:PORT. Needs `token`. */
  readonly url?: string;
  /** The bearer token of the TCP listener (the daemon's <data dir>/http-token). */
  readonly token?: string;
  /** How long one attempt may take, in milliseconds (default 30 000); sent to the daemon, which budgets the evaluation inside it. */
  readonly timeoutMs?: number;
  /** How long to wait before the one retry when the daemon is not answering (restarting), in milliseconds (default 500); false: no retry. */
  readonly retryDelayMs?: number | false;
  /** The HTTP exchange (default: the runtime's own, src/runtime/client.ts). */
  readonly transport?: ClientTransport;
}

/** Options resolved once: where, how, how long. Impossible combinations are refused before any request. */
export interface ResolvedOptions {
  readonly target: ListenTarget;
  readonly describe: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly retryDelayMs: number | false;
}

const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):(\d{1,5})\/?$/;

/** Where the client runs: what the default socket is resolved from, as `emit` resolves it (src/config/locations.ts). */
export interface ClientPlace {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  readonly cwd: string;
}

export function resolveOptions(options: ClientOptions, place: ClientPlace): ResolvedOptions {
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw new TypeError(`timeoutMs must be a whole number of milliseconds, got ${options.timeoutMs}`);
  const retryDelayMs = options.retryDelayMs ?? 500;
  if (retryDelayMs !== false && (!Number.isInteger(retryDelayMs) || retryDelayMs < 0)) throw new TypeError(`retryDelayMs must be a whole number of milliseconds or false, got ${options.retryDelayMs}`);
  if (options.url !== undefined) {
    if (options.socket !== undefined) throw new TypeError("give the daemon's socket or its url, not both");
    const match = LOOPBACK.exec(options.url);
    if (!match) throw new TypeError(`url must be the daemon's loopback listener, like http://127.0.0.1:8787 (events carry code and prompts; they must not leave the machine), got ${options.url}`);
    if (!options.token) throw new TypeError("the TCP listener needs the daemon's bearer token (token: the contents of <data dir>/http-token)");
    const hostname = match[1] === "[::1]" ? "::1" : (match[1] as string);
    return { target: { hostname, port: Number(match[2]) }, describe: options.url, headers: { authorization: `Bearer ${options.token}` }, timeoutMs, retryDelayMs };
  }
  const fromEnv = place.env[LOCATION_VARIABLES.socket] || undefined;
  const socket = options.socket ?? (fromEnv ? (fromEnv.startsWith("/") ? fromEnv : `${place.cwd}/${fromEnv}`) : defaultSocketPath(place.env, place.homeDir));
  return { target: { unix: socket }, describe: socket, headers: options.token ? { authorization: `Bearer ${options.token}` } : {}, timeoutMs, retryDelayMs };
}
