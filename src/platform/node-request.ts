import { createConnection } from "node:net";
import { exchange, type Connection, type ConnectionEvents } from "./http1.ts";
import type { HttpReply, HttpRequestInit, ListenTarget } from "./types.ts";

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
