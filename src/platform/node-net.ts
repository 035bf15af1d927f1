import { createServer, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { requestNode } from "./node-request.ts";
import type { FetchHandler, ListenTarget, Listener, NetHost } from "./types.ts";

export { requestNode } from "./node-request.ts";

/** NetHost on node:http (Node and Deno); Bun overrides `serve` and `request` with its own. */
export const nodeNetHost: NetHost = {
  serve: (handler, target) => serveNode(handler, target),
  request: (target, init) => requestNode(target, init),
  // Node reads no peer credentials (no SO_PEERCRED, no FFI): a daemon is not asked at all.
  requestWithPeer: async () => ({ unverifiable: UNVERIFIABLE }),
  peersUnverifiable: async () => UNVERIFIABLE,
};

const UNVERIFIABLE = `Hookbox runs from its sources under ${(globalThis as { Deno?: unknown }).Deno ? "Deno" : "Node"} here, which cannot tell which process answers on a unix socket: only the binary verifies a daemon`;

function serveNode(handler: FetchHandler, target: ListenTarget): Promise<Listener> {
  const server: Server = createServer(getRequestListener((request) => handler(request)));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    const onListening = (): void => {
      server.off("error", reject);
      resolve({
        address: "unix" in target ? `unix:${target.unix}` : `http://${target.hostname}:${(server.address() as { port: number }).port}`,
        // node:http hands a handler no peer credentials (and Node has no FFI to read them): the socket's permissions alone keep others out.
        peerCredentials: false,
        close: (graceMs) =>
          new Promise<void>((done) => {
            const timer = setTimeout(() => server.closeAllConnections(), graceMs);
            server.close(() => {
              clearTimeout(timer);
              done();
            });
            server.closeIdleConnections();
          }),
      });
    };
    if ("unix" in target) server.listen(target.unix, onListening);
    else server.listen(target.port, target.hostname, onListening);
  });
}
