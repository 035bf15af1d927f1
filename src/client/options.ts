import type { ListenTarget } from "../platform/http-types.ts";
import type { ClientTransport } from "../platform/client.ts";
import { defaultSocketPath, SOCKET_VARIABLE } from "../core/wire/socket.ts";
import type { HookSetIdentityV1 } from "../core/wire/health.ts";

/** What the caller expects the daemon to say of itself (GET /v1/daemon): its build, and fields of its hook-set identity. */
export interface ExpectedDaemon {
  readonly build?: string;
  readonly identity?: Partial<Omit<HookSetIdentityV1, "v" | "build">>;
}

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
  /** The HTTP exchange (default: the runtime's own, src/platform/client.ts). With a transport of your own, no peer is verified. */
  readonly transport?: ClientTransport;
  /**
   * Prove, for every request on the unix socket, that what answers is the Hookbox binary `binary`
   * run by this user with no code injected, holding that very connection (SECURITY.md, "Who
   * answers on the socket"). Linux only, with iproute2's `ss` installed: ~10-30 ms a request
   * (Node and Bun); not on Deno, macOS or Windows.
   * - "auto" (default): where it can be done and `hookbox` is found on PATH; else only the socket file's owner is checked;
   * - true, or { binary }: always, and a request that cannot be proven fails with peer_refused;
   * - false: only the socket file's owner is checked.
   */
  readonly verifyPeer?: "auto" | boolean | { readonly binary: string };
  /**
   * Refuse a daemon whose own report (GET /v1/daemon) differs from this: code hook_set_mismatch.
   * Asked before the first call, and again after the daemon was unreachable (it may have been
   * replaced). A report is what the daemon says: with verifyPeer, said by a proven Hookbox.
   */
  readonly expect?: ExpectedDaemon;
}

/** verifyPeer resolved: whether a request must be proven, and against which binary (undefined: looked up on PATH). */
export type PeerCheck = { readonly mode: "off" } | { readonly mode: "auto" | "required"; readonly binary: string | undefined };

/** Options resolved once: where, how, how long. Impossible combinations are refused before any request. */
export interface ResolvedOptions {
  readonly target: ListenTarget;
  readonly describe: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly retryDelayMs: number | false;
  readonly peerCheck: PeerCheck;
  readonly expect: ExpectedDaemon | undefined;
}

const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):(\d{1,5})\/?$/;

/** Where the client runs: what the default socket is resolved from, as `emit` resolves it (src/core/wire/socket.ts). */
export interface ClientPlace {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  readonly cwd: string;
}

export function resolveOptions(options: ClientOptions, place: ClientPlace): ResolvedOptions {
  const verify = options.verifyPeer ?? "auto";
  if (
    verify !== "auto" &&
    typeof verify !== "boolean" &&
    (typeof verify !== "object" || typeof verify.binary !== "string" || !verify.binary.startsWith("/"))
  )
    throw new TypeError(`verifyPeer must be "auto", true, false or { binary: "/absolute/path/to/hookbox" }, got ${JSON.stringify(verify)}`);
  const peerCheck: PeerCheck =
    verify === false
      ? { mode: "off" }
      : { mode: verify === "auto" ? "auto" : "required", binary: typeof verify === "object" ? verify.binary : undefined };
  const expect = options.expect;
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
    throw new TypeError(`timeoutMs must be a whole number of milliseconds, got ${options.timeoutMs}`);
  const retryDelayMs = options.retryDelayMs ?? 500;
  if (retryDelayMs !== false && (!Number.isInteger(retryDelayMs) || retryDelayMs < 0))
    throw new TypeError(`retryDelayMs must be a whole number of milliseconds or false, got ${options.retryDelayMs}`);
  if (options.url !== undefined) {
    if (options.socket !== undefined) throw new TypeError("give the daemon's socket or its url, not both");
    const match = LOOPBACK.exec(options.url);
    if (!match)
      throw new TypeError(
        `url must be the daemon's loopback listener, like http://127.0.0.1:8787 (events carry code and prompts; they must not leave the machine), got ${options.url}`,
      );
    if (!options.token) throw new TypeError("the TCP listener needs the daemon's bearer token (token: the contents of <data dir>/http-token)");
    const hostname = match[1] === "[::1]" ? "::1" : (match[1] as string);
    if (peerCheck.mode === "required")
      throw new TypeError(
        "verifyPeer proves who answers on a unix socket: a TCP listener's peer is proven by its bearer token instead (give socket, or leave verifyPeer out)",
      );
    return {
      target: { hostname, port: Number(match[2]) },
      describe: options.url,
      headers: { authorization: `Bearer ${options.token}` },
      timeoutMs,
      retryDelayMs,
      peerCheck: { mode: "off" },
      expect,
    };
  }
  const fromEnv = place.env[SOCKET_VARIABLE] || undefined;
  const socket =
    options.socket ?? (fromEnv ? (fromEnv.startsWith("/") ? fromEnv : `${place.cwd}/${fromEnv}`) : defaultSocketPath(place.env, place.homeDir));
  if (options.transport && peerCheck.mode === "required")
    throw new TypeError("verifyPeer needs the runtime's own transport: a transport of your own reads no peer");
  return {
    target: { unix: socket },
    describe: socket,
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    timeoutMs,
    retryDelayMs,
    peerCheck: options.transport ? { mode: "off" } : peerCheck,
    expect,
  };
}
