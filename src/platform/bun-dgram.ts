import { PLATFORM } from "./platform.ts";
import { dlopen, FFIType, read } from "bun:ffi";
import type { MessageSocket } from "./types.ts";

// Linux's generic ABI (x86-64 and arm64 share it).
const AF_UNIX = 1;
const SOCK_DGRAM = 2;
const SOCK_NONBLOCK = 0o4000;
const SOCK_CLOEXEC = 0o2000000;
const MSG_NOSIGNAL = 0x4000;
const EINTR = 4;
const EAGAIN = 11;
const SOCKADDR_UN_BYTES = 110;
const ERRNO_NAMES: Readonly<Record<number, string>> = { 2: "ENOENT", 11: "EAGAIN", 13: "EACCES", 90: "EMSGSIZE", 111: "ECONNREFUSED" };

/**
 * A unix datagram socket (what /dev/log is) through bun:ffi: neither Node's nor Bun's APIs speak
 * one. Non-blocking: a listener that stopped reading fills its queue and the send fails with
 * EAGAIN for the caller to retry, instead of blocking the daemon. Each message is addressed
 * (sendto), so a syslog daemon that recreated its socket is found again. Linux only.
 */
export function bunUnixDatagram(path: string): MessageSocket {
  if (!PLATFORM.unixDatagram) throw new Error(`unix datagram sockets (${path}) are supported on Linux only; use udp or tcp to a relay`);
  const libc = dlopen("libc.so.6", {
    socket: { args: [FFIType.i32, FFIType.i32, FFIType.i32], returns: FFIType.i32 },
    sendto: { args: [FFIType.i32, FFIType.ptr, FFIType.u64, FFIType.i32, FFIType.ptr, FFIType.u32], returns: FFIType.i64 },
    close: { args: [FFIType.i32], returns: FFIType.i32 },
    __errno_location: { args: [], returns: FFIType.ptr },
  });
  const c = libc.symbols;
  const errno = (): number => read.i32(c.__errno_location() as number, 0);
  const pathBytes = new TextEncoder().encode(path);
  if (pathBytes.byteLength >= SOCKADDR_UN_BYTES - 2) throw new Error(`${path}: ENAMETOOLONG`);
  const address = new Uint8Array(SOCKADDR_UN_BYTES);
  new DataView(address.buffer).setUint16(0, AF_UNIX, true);
  address.set(pathBytes, 2);
  const fd = c.socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) throw new Error(`socket for ${path}: ${ERRNO_NAMES[errno()] ?? `errno ${errno()}`}`);
  let open = true;
  return {
    send: async (bytes) => {
      if (!open) throw new Error(`the socket for ${path} is closed`);
      for (;;) {
        if (Number(c.sendto(fd, bytes, bytes.byteLength, MSG_NOSIGNAL, address, SOCKADDR_UN_BYTES)) >= 0) return;
        const code = errno();
        if (code === EINTR) continue;
        throw new Error(
          code === EAGAIN ? `${path} is not reading (its queue is full)` : `sending to ${path}: ${ERRNO_NAMES[code] ?? `errno ${code}`}`,
        );
      }
    },
    close: () => {
      if (open) c.close(fd);
      open = false;
    },
  };
}
