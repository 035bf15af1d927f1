import { createServer, type Server } from "node:http";
import { createConnection } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { exchange, type Connection, type ConnectionEvents } from "./http1.ts";
import type { FetchHandler, HttpReply, HttpRequestInit, ListenTarget, Listener, NetHost } from "./types.ts";

/** NetHost on node:http (Node and Deno); Bun overrides `serve` and `request` with its own. */
export const nodeNetHost: NetHost = {
  serve: (handler, target) => serveNode(handler, target),
  request: (target, init) => requestNode(target, init),
};

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

/** NetHost.request on Node and Deno: the HTTP/1.1 exchange of http1.ts (shared with Bun) over node:net. */
export function requestNode(target: ListenTarget, init: HttpRequestInit): Promise<HttpReply> {
  return exchange((events) => nodeConnection(target, events), init, "unix" in target ? "localhost" : `${target.hostname}:${target.port}`);
}

function nodeConnection(target: ListenTarget, events: ConnectionEvents): Connection {
  const socket = "unix" in target ? createConnection({ path: target.unix }) : createConnection({ host: target.hostname, port: target.port });
  socket.on("data", (chunk: Buffer) => events.data(chunk));
  socket.on("end", () => events.end());
  socket.on("close", () => events.end());
  socket.on("error", (error) => events.error(error));
  return {
    write: (bytes) => void socket.write(bytes),
    destroy: () => void socket.destroy(),
  };
}
