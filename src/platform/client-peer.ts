import { createConnection, type Socket } from "node:net";
import { lstat, stat } from "node:fs/promises";
import process from "node:process";
import { encodeRequest, HttpResponseReader, HttpTimeoutError } from "./http1.ts";
import { identityOfStat, readPeerWithSs } from "./node-peer.ts";
import { PLATFORM } from "./platform.ts";
import type { HttpReply, HttpRequestInit } from "./http-types.ts";
import type { FileIdentity, PeerEvidence } from "./peer-types.ts";

/**
 * What hookbox/client needs to check the daemon it talks to on a unix socket, on Node, Bun and
 * Deno (node:net, node:fs): who owns the socket file, and — when asked (verifyPeer) — who
 * answered each request (the peer of that very connection, read before it is closed).
 */
export interface ClientPeerIO {
  /** This process's effective uid; undefined where there is none (Windows). */
  readonly uid: number | undefined;
  /** lstat: what is at `path` and who owns it; undefined when nothing is. */
  owner(path: string): Promise<{ readonly kind: "socket" | "other"; readonly uid: number } | undefined>;
  /** The identity of the file at `path` (following links), as a peer's executable is compared with it. */
  fileIdentity(path: string): Promise<FileIdentity>;
  /** Why this runtime cannot read a peer; undefined where it can. */
  readonly peersUnverifiable: string | undefined;
  /** One request on `path`, the peer read after the answer (`self`: the executable it must be, passed through as the evidence's). */
  requestWithPeer(path: string, init: HttpRequestInit, self: FileIdentity): Promise<{ readonly reply: HttpReply; readonly peer: PeerEvidence }>;
}

const isDeno = (): boolean => (globalThis as { Deno?: unknown }).Deno !== undefined;

export const clientPeerIO: ClientPeerIO = {
  uid: process.geteuid?.(),
  async owner(path) {
    try {
      const info = await lstat(path);
      return { kind: info.isSocket() ? "socket" : "other", uid: info.uid };
    } catch (error) {
      if ((error as { code?: unknown }).code === "ENOENT") return undefined;
      throw error;
    }
  },
  fileIdentity: async (path) => ({ id: identityOfStat(await stat(path, { bigint: true })), path }),
  peersUnverifiable:
    PLATFORM.daemonProof !== "procfs"
      ? `this platform (${process.platform}/${process.arch}) gives no way to prove which process answers on a unix socket (docs/release.md#platforms)`
      : isDeno()
        ? "Deno exposes no descriptor of a connection to read its peer with"
        : undefined,
  requestWithPeer,
};

/**
 * The exchange of http1.ts over node:net, asking for keep-alive so that the server still holds
 * its end when the peer is read (node-peer.ts). The connection's descriptor is node:net's
 * `_handle.fd`, which Node and Bun both expose on Unix.
 */
function requestWithPeer(path: string, init: HttpRequestInit, self: FileIdentity): Promise<{ reply: HttpReply; peer: PeerEvidence }> {
  return new Promise((resolve, reject) => {
    const reader = new HttpResponseReader(init.method.toUpperCase() !== "HEAD");
    const socket: Socket = createConnection({ path });
    let settled = false;
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(new HttpTimeoutError(`no answer within ${init.timeoutMs} ms`)), init.timeoutMs);
    socket.on("connect", () => {
      try {
        socket.write(encodeRequest({ ...init, headers: { ...init.headers, connection: "keep-alive" } }, "localhost"));
      } catch (error) {
        fail(error as Error);
      }
    });
    socket.on("data", (chunk: Buffer) => {
      if (settled) return;
      let reply: HttpReply | undefined;
      try {
        reply = reader.push(chunk);
      } catch (error) {
        return fail(error as Error);
      }
      if (!reply) return;
      settled = true;
      clearTimeout(timer);
      const answered = reply;
      const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
      void readPeer(typeof fd === "number" ? fd : -1, self)
        .then((peer) => resolve({ reply: answered, peer }), reject)
        .finally(() => socket.destroy());
    });
    socket.on("end", () => {
      try {
        const reply = reader.end();
        fail(Object.assign(new Error("the server closed the connection right after answering: its end cannot be checked"), { reply }));
      } catch (error) {
        fail(error as Error);
      }
    });
    socket.on("error", fail);
  });
}

/**
 * Through ss and /proc under Bun too: bun-peer.ts would read it in ~0.2 ms, but bun:ffi imported
 * anywhere in the library would keep Node from loading it at all (its bundle has one module).
 */
async function readPeer(fd: number, self: FileIdentity): Promise<PeerEvidence> {
  if (fd < 0) return { read: false, why: "this runtime does not expose the connection's descriptor" };
  return readPeerWithSs(fd, self);
}
