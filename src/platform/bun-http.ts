import { exchange, type Connection, type ConnectionEvents } from "./http1.ts";
import type { HttpReply, HttpRequestInit, ListenTarget } from "./types.ts";

type BunSocket = Awaited<ReturnType<typeof Bun.connect>>;

/**
 * NetHost.request on Bun: the HTTP/1.1 exchange of http1.ts over `Bun.connect` (a socket on
 * the main thread's event loop). Measured on a warm unix socket: 54 µs against 126 µs for
 * Bun's fetch, which also starts an HTTP client thread on its first use.
 */
export function bunRequest(target: ListenTarget, init: HttpRequestInit): Promise<HttpReply> {
  return exchange((events) => bunConnection(target, events), init, "unix" in target ? "localhost" : `${target.hostname}:${target.port}`);
}

/** A Bun socket that queues writes until it is open and while the kernel's buffer is full. */
function bunConnection(target: ListenTarget, events: ConnectionEvents): Connection {
  let socket: BunSocket | undefined;
  let destroyed = false;
  const queue: Uint8Array[] = [];
  const flush = (): void => {
    while (socket && queue.length > 0) {
      const next = queue[0] as Uint8Array;
      const written = socket.write(next);
      if (written < 0) return events.error(new Error("the connection closed while the request was being sent"));
      if (written < next.byteLength) {
        queue[0] = next.subarray(written);
        return; // the rest on drain
      }
      queue.shift();
    }
  };
  const handlers = {
    open(opened: BunSocket) {
      if (destroyed) return void opened.terminate();
      socket = opened;
      flush();
    },
    data: (_socket: BunSocket, chunk: Uint8Array) => events.data(chunk),
    drain: () => flush(),
    end: () => events.end(),
    close: (_socket: BunSocket, error?: Error) => (error ? events.error(error) : events.end()),
    error: (_socket: BunSocket, error: Error) => events.error(error),
    connectError: (_socket: BunSocket, error: Error) => events.error(error),
  };
  const address = "unix" in target ? { unix: target.unix } : { hostname: target.hostname, port: target.port };
  Bun.connect({ ...address, socket: handlers } as Parameters<typeof Bun.connect>[0]).catch((error: unknown) =>
    events.error(error instanceof Error ? error : new Error(String(error))),
  );
  return {
    write: (bytes) => {
      queue.push(bytes);
      flush();
    },
    destroy: () => {
      destroyed = true;
      socket?.terminate();
      socket = undefined;
    },
  };
}
