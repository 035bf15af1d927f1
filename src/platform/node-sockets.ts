import { createSocket } from "node:dgram";
import { createConnection, type Socket } from "node:net";
import type { MessageSocket, MessageTarget, SocketHost } from "./types.ts";

/** Message sockets on node:net and node:dgram (Node, Deno, and Bun for all but unix datagrams). */
export const nodeSocketHost: SocketHost = {
  open: (target, timeoutMs) => {
    if (target.kind === "udp") return Promise.resolve(udpSocket(target.hostname, target.port));
    if (target.kind === "unix-dgram")
      return Promise.reject(
        new Error(
          `a unix datagram socket (${target.path}) can only be written by the hookbox binary (Bun) on Linux; use unix-stream, udp or tcp here`,
        ),
      );
    return streamSocket(target, timeoutMs);
  },
};

function udpSocket(hostname: string, port: number): MessageSocket {
  const socket = createSocket(hostname.includes(":") ? "udp6" : "udp4");
  socket.on("error", () => undefined);
  socket.unref();
  return {
    send: (bytes) => new Promise((resolve, reject) => socket.send(bytes, port, hostname, (error) => (error ? reject(error) : resolve()))),
    close: () => socket.close(),
  };
}

function streamSocket(target: Extract<MessageTarget, { kind: "tcp" | "unix-stream" }>, timeoutMs: number): Promise<MessageSocket> {
  return new Promise((resolve, reject) => {
    const socket: Socket =
      target.kind === "tcp" ? createConnection({ host: target.hostname, port: target.port }) : createConnection({ path: target.path });
    let broken: Error | undefined;
    const timer = setTimeout(() => socket.destroy(new Error(`could not connect within ${timeoutMs} ms`)), timeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      resolve({
        send: (bytes) =>
          broken
            ? Promise.reject(broken)
            : new Promise((done, fail) => {
                socket.write(bytes, (error) => (error ? fail(error) : done()));
              }),
        close: () => socket.destroy(),
      });
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      broken = error;
      reject(error);
    });
    // The relay hung up: the next send fails and the caller reconnects.
    socket.on("close", () => {
      clearTimeout(timer);
      broken ??= new Error("the connection was closed by the other end");
      reject(broken);
    });
    socket.setNoDelay(true);
    socket.unref();
  });
}
