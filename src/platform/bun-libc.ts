import { dlopen, FFIType, read } from "bun:ffi";
import { PLATFORM } from "./platform.ts";
import { concatBytes, encodeRequest, HttpResponseReader } from "./http1.ts";
import type { PeerEvidence } from "./peer-types.ts";

/** What an inspected exchange runs on its connected descriptor (bun-peer.ts reads the peer). */
export interface ConnectionInspector {
  /** Right after connect, before anything is sent: a refusal ends the exchange there, nothing sent. */
  connected(fd: number): { readonly refused: string; readonly peer: PeerEvidence } | undefined;
  /** Once the whole answer is in, before this side closes (the server still holds its end). `serverFd`: where the server says its end is (CONNECTION_FD_HEADER), unchecked. */
  answered(fd: number, serverFd: number | undefined): PeerEvidence;
}
import type { HttpReply, HttpRequestInit } from "./types.ts";

/**
 * `hookbox emit`'s I/O as plain blocking system calls through bun:ffi, on Linux: read stdin to
 * its end, connect to the daemon's unix socket, write the request, read the answer. emit has
 * nothing else to do meanwhile, and Bun's own machinery for the same (Bun.stdin's stream, a
 * Bun.connect socket on the event loop) costs more at startup than these six calls: measured
 * against a Bun-compiled hello world, a floor program doing this exchange with Bun's APIs is
 * 1.22×, with these calls 1.13× (bench/hooks/floor-emit.ts).
 *
 * Every call is bounded: SO_SNDTIMEO / SO_RCVTIMEO hold connect, write and each read to the
 * time left of the request's `timeoutMs`. Undefined where the calls cannot be bound (not Linux
 * on x64/arm64, no libc.so.6): the callers use Bun's APIs then.
 */
export interface Syscalls {
  /** All of `fd` to its end, refusing more than `maxBytes`. */
  readAll(fd: number, maxBytes: number): Uint8Array;
  /** One HTTP/1.1 exchange on a unix socket. */
  unixRequest(path: string, init: HttpRequestInit): HttpReply;
  /**
   * The same, the connection inspected once connected and once answered; the server is asked to
   * keep the connection open (keep-alive), so that it still holds its end at the second look.
   */
  unixRequestInspected(
    path: string,
    init: HttpRequestInit,
    inspector: ConnectionInspector,
  ): { readonly reply: HttpReply; readonly peer: PeerEvidence } | { readonly refused: string; readonly peer: PeerEvidence };
}

// Linux's generic ABI (x86-64 and arm64 share it).
const AF_UNIX = 1;
const SOCK_STREAM = 1;
const SOCK_CLOEXEC = 0o2000000;
const SOL_SOCKET = 1;
const SO_RCVTIMEO = 20;
const SO_SNDTIMEO = 21;
const EINTR = 4;
const EAGAIN = 11;
/** sizeof(struct sockaddr_un): a 2-byte family, then up to 108 bytes of path. */
const SOCKADDR_UN_BYTES = 110;
const READ_CHUNK_BYTES = 64 * 1024;

const ERRNO_NAMES: Readonly<Record<number, string>> = {
  2: "ENOENT",
  4: "EINTR",
  11: "EAGAIN",
  13: "EACCES",
  20: "ENOTDIR",
  32: "EPIPE",
  36: "ENAMETOOLONG",
  104: "ECONNRESET",
  111: "ECONNREFUSED",
};

let loaded: Syscalls | undefined | null = null;

/** The system calls, opened once; undefined where they are not available. */
export function syscalls(): Syscalls | undefined {
  if (loaded === null) loaded = openSyscalls();
  return loaded;
}

function openSyscalls(): Syscalls | undefined {
  if (!PLATFORM.rawSockets || PLATFORM.libc === undefined) return undefined;
  let libc;
  try {
    libc = dlopen(PLATFORM.libc, {
      read: { args: [FFIType.i32, FFIType.ptr, FFIType.u64], returns: FFIType.i64 },
      write: { args: [FFIType.i32, FFIType.ptr, FFIType.u64], returns: FFIType.i64 },
      socket: { args: [FFIType.i32, FFIType.i32, FFIType.i32], returns: FFIType.i32 },
      connect: { args: [FFIType.i32, FFIType.ptr, FFIType.u32], returns: FFIType.i32 },
      setsockopt: { args: [FFIType.i32, FFIType.i32, FFIType.i32, FFIType.ptr, FFIType.u32], returns: FFIType.i32 },
      close: { args: [FFIType.i32], returns: FFIType.i32 },
      __errno_location: { args: [], returns: FFIType.ptr },
    });
  } catch {
    return undefined; // musl names its libc differently, or no FFI here
  }
  const c = libc.symbols;
  const errno = (): number => read.i32(c.__errno_location() as number, 0);
  const failure = (call: string, code: number, what: string): Error =>
    Object.assign(new Error(`${call} ${what}: ${ERRNO_NAMES[code] ?? `errno ${code}`}`), { code: ERRNO_NAMES[code] ?? `E${code}` });

  /** read(2), retried on EINTR; -errno on failure. */
  const readOnce = (fd: number, buffer: Uint8Array): number => {
    for (;;) {
      const n = Number(c.read(fd, buffer, buffer.byteLength));
      if (n >= 0) return n;
      const code = errno();
      if (code !== EINTR) return -code;
    }
  };

  const writeAll = (fd: number, bytes: Uint8Array, what: string): void => {
    let offset = 0;
    while (offset < bytes.byteLength) {
      const rest = bytes.subarray(offset);
      const n = Number(c.write(fd, rest, rest.byteLength));
      if (n >= 0) {
        offset += n;
        continue;
      }
      const code = errno();
      if (code === EINTR) continue;
      throw code === EAGAIN ? new Error(`no answer within the time limit (writing to ${what})`) : failure("write", code, what);
    }
  };

  /** SO_RCVTIMEO or SO_SNDTIMEO: a struct timeval of two 64-bit fields; at least 1 ms (0 would mean forever). */
  const setSocketTimeout = (fd: number, option: number, ms: number): void => {
    const us = Math.max(1000, Math.ceil(ms * 1000));
    const timeval = new BigInt64Array([BigInt(Math.floor(us / 1_000_000)), BigInt(us % 1_000_000)]);
    if (c.setsockopt(fd, SOL_SOCKET, option, timeval, 16) !== 0) throw failure("setsockopt", errno(), "socket");
  };

  /** One exchange on a fresh connection, inspected by `inspector` when given. */
  const exchange = (
    path: string,
    init: HttpRequestInit,
    inspector?: ConnectionInspector,
  ): { reply: HttpReply; peer?: PeerEvidence } | { refused: string; peer: PeerEvidence } => {
    const deadline = performance.now() + init.timeoutMs;
    const request = encodeRequest(init, "localhost");
    const address = new Uint8Array(SOCKADDR_UN_BYTES);
    const pathBytes = new TextEncoder().encode(path);
    if (pathBytes.byteLength >= SOCKADDR_UN_BYTES - 2) throw failure("connect", 36, path);
    new DataView(address.buffer).setUint16(0, AF_UNIX, true);
    address.set(pathBytes, 2);
    const fd = c.socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw failure("socket", errno(), path);
    try {
      // Bounds connect (a full backlog blocks it) and every write.
      setSocketTimeout(fd, SO_SNDTIMEO, init.timeoutMs);
      while (c.connect(fd, address, SOCKADDR_UN_BYTES) !== 0) {
        const code = errno();
        if (code === EINTR) continue;
        throw code === EAGAIN ? new Error(`no answer within ${init.timeoutMs} ms (connecting to ${path})`) : failure("connect", code, path);
      }
      const refused = inspector?.connected(fd);
      if (refused) return refused;
      writeAll(fd, request, path);
      const reader = new HttpResponseReader(init.method.toUpperCase() !== "HEAD");
      const buffer = new Uint8Array(READ_CHUNK_BYTES);
      for (;;) {
        const left = deadline - performance.now();
        if (left <= 0) throw new Error(`no answer within ${init.timeoutMs} ms`);
        setSocketTimeout(fd, SO_RCVTIMEO, left);
        const n = readOnce(fd, buffer);
        if (n === -EAGAIN) continue; // the receive timeout: the deadline check above decides
        if (n < 0) throw failure("read", -n, path);
        const reply = n === 0 ? reader.end() : reader.push(buffer.subarray(0, n));
        if (reply) return { reply, ...(inspector ? { peer: inspector.answered(fd, reader.connectionFd) } : {}) };
      }
    } finally {
      c.close(fd);
    }
  };

  return {
    readAll(fd, maxBytes) {
      const parts: Uint8Array[] = [];
      let total = 0;
      const buffer = new Uint8Array(READ_CHUNK_BYTES);
      for (;;) {
        const n = readOnce(fd, buffer);
        if (n < 0) throw failure("read", -n, `fd ${fd}`);
        if (n === 0) break;
        total += n;
        if (total > maxBytes) throw new RangeError(`stdin is larger than ${maxBytes} bytes`);
        parts.push(buffer.slice(0, n));
      }
      return concatBytes(parts);
    },

    unixRequest(path, init) {
      const done = exchange(path, init);
      if (!("reply" in done)) throw new Error("an exchange without an inspector was refused"); // cannot happen
      return done.reply;
    },
    unixRequestInspected(path, init, inspector) {
      const done = exchange(path, { ...init, headers: { ...init.headers, connection: "keep-alive" } }, inspector);
      return "refused" in done ? done : { reply: done.reply, peer: done.peer as PeerEvidence };
    },
  };
}
