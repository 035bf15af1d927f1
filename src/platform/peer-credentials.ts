import { dlopen, FFIType } from "bun:ffi";
import { PLATFORM } from "./platform.ts";

/**
 * The uid (and on Linux the pid) of the process at the other end of a connected unix socket, as
 * the kernel recorded it at connect(2): getsockopt(SO_PEERCRED) on Linux, getpeereid(3) on macOS
 * and the BSDs. One system call through bun:ffi, ~1 µs, once per connection. Undefined where
 * neither can be bound (then the daemon relies on its socket's permissions alone, and says so).
 */
export type PeerReader = (fd: number) => { readonly uid: number; readonly pid?: number };

// Linux's generic ABI (x86-64 and arm64 share it).
const SOL_SOCKET = 1;
const SO_PEERCRED = 17;
/** struct ucred: pid_t pid, uid_t uid, gid_t gid. */
const UCRED_BYTES = 12;

let loaded: PeerReader | undefined | null = null;

export function peerReader(): PeerReader | undefined {
  if (loaded === null) loaded = open();
  return loaded;
}

function open(): PeerReader | undefined {
  try {
    if (PLATFORM.peerCredentials === "SO_PEERCRED") return linux(PLATFORM.libc as string);
    if (PLATFORM.peerCredentials === "getpeereid") return bsd(PLATFORM.libc as string);
  } catch {
    // no libc by that name (musl), or no FFI here
  }
  return undefined;
}

function linux(name: string): PeerReader {
  const libc = dlopen(name, {
    getsockopt: { args: [FFIType.i32, FFIType.i32, FFIType.i32, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  });
  return (fd) => {
    const ucred = new Int32Array(UCRED_BYTES / 4);
    const length = new Uint32Array([UCRED_BYTES]);
    if (libc.symbols.getsockopt(fd, SOL_SOCKET, SO_PEERCRED, ucred, length) !== 0) throw new Error(`getsockopt(SO_PEERCRED) failed on fd ${fd}`);
    return { pid: ucred[0] as number, uid: (ucred[1] as number) >>> 0 };
  };
}

function bsd(name: string): PeerReader {
  const libc = dlopen(name, {
    getpeereid: { args: [FFIType.i32, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  });
  return (fd) => {
    const uid = new Uint32Array(1);
    const gid = new Uint32Array(1);
    if (libc.symbols.getpeereid(fd, uid, gid) !== 0) throw new Error(`getpeereid failed on fd ${fd}`);
    return { uid: uid[0] as number };
  };
}
