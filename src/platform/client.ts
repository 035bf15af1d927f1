import { homedir } from "node:os";
import process from "node:process";
import type { ClientPeerIO } from "./client-peer.ts";
import type { HttpReply, HttpRequestInit, ListenTarget } from "./http-types.ts";

/** One HTTP exchange with a local listener: NetHost.request's contract, what hookbox/client sends its requests through. */
export type ClientTransport = (target: ListenTarget, init: HttpRequestInit) => Promise<HttpReply>;

/** What hookbox/client takes from the runtime it is imported into (Node, Bun or Deno). */
export interface ClientRuntime {
  readonly transport: ClientTransport;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  readonly cwd: string;
  /** Who owns the socket, and who answers on it (src/client/verify.ts). */
  readonly peer: ClientPeerIO;
}

/**
 * The runtime's own transport: Bun.connect on Bun, node:net on Node and Deno (whose node:net
 * connects to unix sockets too). node:os and node:process exist in all three.
 */
export async function clientRuntime(): Promise<ClientRuntime> {
  const transport: ClientTransport = (globalThis as { Bun?: unknown }).Bun
    ? (await import("./bun-http.ts")).bunRequest
    : (await import("./node-request.ts")).requestNode;
  return {
    transport,
    env: process.env,
    homeDir: process.env.HOME || homedir(),
    cwd: process.cwd(),
    peer: (await import("./client-peer.ts")).clientPeerIO,
  };
}
