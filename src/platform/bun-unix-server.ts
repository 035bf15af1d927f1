import { HttpServerConnection, type ServerSocket } from "./http1-server.ts";
import { peerReader } from "./peer-credentials.ts";
import type { ConnectionInfo, FetchHandler, Listener } from "./types.ts";

interface Client {
  http: HttpServerConnection;
  /** Bytes the kernel's buffer did not take yet, written on drain. */
  queue: Uint8Array[];
  ending: boolean;
}

type Socket = Bun.Socket<Client>;

/**
 * The daemon's unix socket on Bun: Bun.listen, whose sockets carry their file descriptor (read
 * through an undocumented but stable `fd` getter, checked by test/runtime/unix-server.test.ts),
 * so each connection's peer is known before its first request; HTTP/1.1 spoken by
 * http1-server.ts. Bun.serve, faster to write for, tells a handler nothing of its peer.
 */
export function serveUnixHttp(handler: FetchHandler, path: string): Promise<Listener> {
  const reader = peerReader();
  const open = new Set<Socket>();
  let closing: Promise<void> | undefined;
  let allClosed: (() => void) | undefined;

  const peerOf = (socket: Socket): ConnectionInfo => {
    const fd = (socket as unknown as { fd?: unknown }).fd;
    if (typeof fd !== "number" || fd < 0) return reader ? { peer: { error: "this runtime does not expose the connection's file descriptor" } } : {};
    if (!reader) return { fd };
    try {
      return { fd, peer: reader(fd) };
    } catch (error) {
      return { fd, peer: { error: (error as Error).message } };
    }
  };

  const sink = (socket: Socket): ServerSocket => ({
    write: (bytes) => {
      const client = socket.data;
      if (client.queue.length > 0) return void client.queue.push(bytes);
      const written = socket.write(bytes);
      if (written < 0) return; // closed under us: the close handler cleans up
      if (written < bytes.byteLength) client.queue.push(bytes.subarray(written));
    },
    end: () => {
      socket.data.ending = true;
      if (socket.data.queue.length === 0) socket.end();
    },
  });

  const flush = (socket: Socket): void => {
    const client = socket.data;
    while (client.queue.length > 0) {
      const next = client.queue[0] as Uint8Array;
      const written = socket.write(next);
      if (written < 0) return;
      if (written < next.byteLength) {
        client.queue[0] = next.subarray(written);
        return;
      }
      client.queue.shift();
    }
    if (client.ending) socket.end();
  };

  const listener = Bun.listen<Client>({
    unix: path,
    socket: {
      open(socket) {
        open.add(socket);
        socket.data = { http: undefined as unknown as HttpServerConnection, queue: [], ending: false };
        socket.data.http = new HttpServerConnection(sink(socket), handler, peerOf(socket));
        if (closing) socket.data.http.closeWhenIdle();
      },
      data: (socket, chunk) => socket.data.http.data(chunk),
      drain: flush,
      end: (socket) => socket.data.http.end(),
      close(socket) {
        socket.data?.http?.end();
        open.delete(socket);
        if (open.size === 0) allClosed?.();
      },
      error: (socket) => socket.data?.http?.end(),
    },
  });

  return Promise.resolve({
    address: `unix:${path}`,
    peerCredentials: reader !== undefined,
    close: (graceMs) =>
      (closing ??= new Promise<void>((resolve) => {
        listener.stop(false);
        const done = (): void => {
          clearTimeout(timer);
          resolve();
        };
        allClosed = done;
        // Past the grace period, whatever is still open is cut.
        const timer = setTimeout(() => {
          for (const socket of open) socket.terminate();
          listener.stop(true);
          resolve();
        }, graceMs);
        for (const socket of open) socket.data.http.closeWhenIdle();
        if (open.size === 0) done();
      })),
  });
}
