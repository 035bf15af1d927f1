import { request as httpRequest, createServer, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { FetchHandler, HttpReply, ListenTarget, Listener, NetHost } from "./types.ts";

/** NetHost on node:http (Node and Deno); Bun overrides `serve` and `request` with its own. */
export const nodeNetHost: NetHost = {
  serve: (handler, target) => serveNode(handler, target),
  request: (target, init) => requestNode(target, init),
};

function serveNode(handler: FetchHandler, target: ListenTarget): Promise<Listener> {
  const server: Server = createServer(getRequestListener(handler));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    const onListening = (): void => {
      server.off("error", reject);
      resolve({
        address: "unix" in target ? `unix:${target.unix}` : `http://${target.hostname}:${(server.address() as { port: number }).port}`,
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

export function requestNode(target: ListenTarget, init: { method: string; path: string; body?: string; headers?: Record<string, string>; timeoutMs: number }): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        ...("unix" in target ? { socketPath: target.unix } : { hostname: target.hostname, port: target.port }),
        method: init.method,
        path: init.path,
        headers: { ...(init.body !== undefined ? { "content-type": "application/json" } : {}), ...init.headers },
        timeout: init.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${init.timeoutMs} ms`)));
    req.on("error", reject);
    req.end(init.body);
  });
}
