import { dlopen, FFIType, read } from "bun:ffi";
import { isCompiledBinary } from "./bun-compiled.ts";
import { syscalls, type ConnectionInspector } from "./bun-libc.ts";
import { PLATFORM } from "./platform.ts";
import type { HttpRequestInit } from "./http-types.ts";
import { fileIdentityId, type FileIdentity, type PeerEvidence, type PeerJudge, type PeeredReply, type SelfProcess } from "./peer-types.ts";

/**
 * Who is at the other end of a connected unix socket, on Linux, read on the client's descriptor
 * in two steps.
 *
 * Once connected, before anything is sent (the caller's judge may refuse right there, and then
 * nothing of the event reaches that process):
 * 1. SO_PEERCRED: the uid and pid of the process that listened (recorded by the kernel at listen());
 * 2. /proc/<pid> opened once as a directory, and everything after read *through that descriptor*
 *    (openat, readlinkat, statx): a descriptor of /proc/<pid> stays bound to the process it was
 *    opened for, and reads through it fail once that process is gone, so a pid reused later can
 *    never be read in its place;
 * 3. through it: the file it runs (exe: device and inode), its environment as started, and
 *    whether something traces it.
 *
 * Once the whole answer is in, before the connection is closed (the request asked for
 * keep-alive, so the server still holds its end):
 * 4. sock_diag (NETLINK_SOCK_DIAG, UDIAG_SHOW_PEER): the inode of the server end of this very
 *    connection, and, through the same /proc/<pid> descriptor, whether that process holds it.
 *
 * Step 4 is what ties the facts to the connection: SO_PEERCRED names whoever called listen(),
 * and that process may have exited and its pid been reused before step 2 (pid_max is 32768 on
 * many systems: an agent can cycle it in seconds), or it may have handed its socket on. Whatever
 * passes step 4 is the process steps 1-3 read, and holds the server end of the connection the
 * answer came over. The server end cannot be checked earlier: it is in no process's descriptor
 * table until the server accepts the connection.
 *
 * ~30 system calls, all through one bound libc function, syscall(2), bound on first use: bun:ffi
 * costs ~10 µs for each function bound and again on each one's first call, and emit pays that at
 * every start. Its signature takes pointers (typed arrays as they are: bun:ffi's ptr() costs
 * ~200 µs on first use) where a call has an integer, which bun:ffi passes as the same bits.
 */

/** System call numbers: x86-64's own table, and the generic one arm64 uses. */
const NR =
  process.arch === "arm64"
    ? { read: 63, write: 64, close: 57, socket: 198, getsockopt: 209, getdents64: 61, openat: 56, readlinkat: 78, statx: 291, faccessat: 48 }
    : { read: 0, write: 1, close: 3, socket: 41, getsockopt: 55, getdents64: 217, openat: 257, readlinkat: 267, statx: 332, faccessat: 269 };

// Linux's generic ABI (x86-64 and arm64 share all of these; O_DIRECTORY does not, so it is not used).
const SOL_SOCKET = 1;
const SO_PEERCRED = 17;
const AF_UNIX = 1;
const AF_NETLINK = 16;
const SOCK_DGRAM = 2;
const SOCK_NONBLOCK = 0o4000;
const SOCK_CLOEXEC = 0o2000000;
const NETLINK_SOCK_DIAG = 4;
const SOCK_DIAG_BY_FAMILY = 20;
const NLM_F_REQUEST = 1;
const NLMSG_ERROR = 2;
const UDIAG_SHOW_PEER = 4;
const UNIX_DIAG_PEER = 2;
const O_RDONLY_CLOEXEC = 0o2000000;
const AT_FDCWD = -100;
const AT_EMPTY_PATH = 0x1000;
const STATX_INO = 0x100;
const W_OK = 2;
const ENOENT = 2;
const ESRCH = 3;
/** A process's environment is at most what its initial stack held; more is not a process to trust. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * NetHost.requestWithPeer on Bun: the exchange through bun-libc.ts's blocking system calls, the
 * peer read and judged once connected and again once answered. Only the binary: under `bun run`
 * this process's executable is Bun itself, which says nothing of the code a daemon runs.
 */
export async function bunRequestWithPeer(path: string, init: HttpRequestInit, judge: PeerJudge): Promise<PeeredReply> {
  const why = bunPeersUnverifiable();
  const sys = syscalls();
  if (why || !sys) return { unverifiable: why ?? "this platform gives Hookbox no system calls through bun:ffi" };
  const inspector = peerInspector(judge);
  try {
    return sys.unixRequestInspected(path, init, inspector);
  } finally {
    inspector.close();
  }
}

/** The inspector of one exchange (bun-libc.ts): the peer read and judged once connected, confirmed once answered. */
export function peerInspector(judge: PeerJudge): ConnectionInspector & { close(): void } {
  let reading: PeerReading | undefined;
  return {
    connected(fd) {
      reading = new PeerReading(fd);
      const refused = judge(reading.evidence);
      return refused === undefined ? undefined : { refused, peer: reading.evidence };
    },
    answered: (_fd, serverFd) => (reading as PeerReading).confirm(serverFd),
    close: () => reading?.close(),
  };
}

/** NetHost.peersUnverifiable on Bun. */
export function bunPeersUnverifiable(): string | undefined {
  if (PLATFORM.daemonProof !== "procfs" || PLATFORM.libc === undefined)
    return `this platform (${process.platform}/${process.arch}) gives Hookbox no way to prove which process answers on a unix socket (docs/release.md#platforms)`;
  if (!isCompiledBinary())
    return "Hookbox runs from its sources here (bun run), not as its binary: a daemon's executable cannot be compared with this one";
  return libc() && syscalls() ? undefined : `bun:ffi cannot open ${PLATFORM.libc} here (a musl system?), which reading a socket's peer needs`;
}

function bind(name: string) {
  return dlopen(name, {
    // Variadic in C; glibc's syscall() takes the number and six arguments from the argument registers on x86-64 and arm64.
    syscall: { args: [FFIType.i64, FFIType.i64, FFIType.ptr, FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i64 },
    __errno_location: { args: [], returns: FFIType.ptr },
  }).symbols;
}

type Libc = ReturnType<typeof bind>;
let bound: Libc | undefined | null = null;

function libc(): Libc | undefined {
  if (bound === null) {
    try {
      bound = bind(PLATFORM.libc as string);
    } catch {
      bound = undefined;
    }
  }
  return bound;
}

/** Thrown inside readPeer: a step that failed, and whether because the process is gone. */
class Unreadable extends Error {
  constructor(
    message: string,
    readonly gone = false,
  ) {
    super(message);
  }
}

let selfExecutable: SelfProcess | undefined;

/** The peer of one connection: read once connected (`evidence`), confirmed once answered (see the comment at the top). */
class PeerReading {
  evidence: PeerEvidence;
  private readonly io: ProcIO | undefined;
  private dir = -1;

  constructor(private readonly fd: number) {
    const c = libc();
    this.io = c ? new ProcIO(c) : undefined;
    this.evidence = this.read();
  }

  private read(): PeerEvidence {
    const io = this.io;
    if (!io) return { read: false, why: bunPeersUnverifiable() ?? "no C library" };
    return io.attempt(() => {
      const ucred = new Int32Array(3);
      io.call(NR.getsockopt, "getsockopt(SO_PEERCRED)", this.fd, SOL_SOCKET, SO_PEERCRED, ucred, new Uint32Array([12]));
      const pid = ucred[0] as number;
      const uid = (ucred[1] as number) >>> 0;
      if (pid <= 0) throw new Unreadable("the kernel names no process for it (it listens from another pid namespace)");
      this.dir = io.openProc(pid);
      const executable = io.identity(this.dir, "exe");
      const environ = decoder.decode(io.file("environ")).split("\0").filter(Boolean);
      const status = decoder.decode(io.file("status"));
      const at = status.indexOf("\nTracerPid:");
      const tracerPid = at < 0 ? 0 : Number.parseInt(status.slice(at + 11, at + 32).trim(), 10) || 0;
      selfExecutable ??= { ...io.identity(AT_FDCWD, "/proc/self/exe"), writable: (path) => io.writable(path) };
      return { read: true, peer: { pid, uid, executable, environ, tracerPid }, self: selfExecutable };
    });
  }

  /**
   * The evidence with whether the process read holds the server end of this connection.
   * `serverFd`: the descriptor the server says its end has (CONNECTION_FD_HEADER): looked at
   * first, checked like any other; all of them are looked at when it is absent or wrong.
   */
  confirm(serverFd: number | undefined): PeerEvidence {
    const first = this.evidence;
    const io = this.io;
    if (!first.read || !io) return first;
    return io.attempt(() => ({ ...first, peer: { ...first.peer, holdsConnection: io.holdsSocket(io.serverEnd(this.fd), serverFd) } }));
  }

  close(): void {
    if (this.dir >= 0) this.io?.close(this.dir);
    this.dir = -1;
  }
}

/** An argument in a pointer's place: a buffer, or an integer passed as the same bits. */
type Arg = NodeJS.TypedArray | number | null;

class ProcIO {
  private readonly buffer = new Uint8Array(16 * 1024);
  proc: { readonly dir: number; readonly pid: number } | undefined;

  constructor(private readonly c: Libc) {}

  path(text: string): Uint8Array {
    return encoder.encode(`${text}\0`);
  }

  close(fd: number): void {
    this.c.syscall(NR.close, fd, null, null, null, null);
  }

  /** faccessat(W_OK): this user may write `path`, or nothing is there (ENOENT). */
  writable(path: string): boolean {
    if (Number(this.c.syscall(NR.faccessat, AT_FDCWD, this.path(path), W_OK, null, null)) === 0) return true;
    return this.errno() === ENOENT;
  }

  errno(): number {
    return read.i32(this.c.__errno_location() as NonNullable<ReturnType<Libc["__errno_location"]>>, 0);
  }

  /** `read`, with an Unreadable as the evidence it says; any other failure too. */
  attempt(read: () => PeerEvidence): PeerEvidence {
    try {
      return read();
    } catch (error) {
      if (error instanceof Unreadable) return { read: false, why: error.message, ...(error.gone ? { gone: true } : {}) };
      return { read: false, why: `reading it failed: ${(error as Error).message}` };
    }
  }

  /** /proc/<pid> as a directory descriptor, which every later read goes through. */
  openProc(pid: number): number {
    const dir = Number(this.c.syscall(NR.openat, AT_FDCWD, this.path(`/proc/${pid}`), O_RDONLY_CLOEXEC, null, null));
    if (dir < 0) {
      const code = this.errno();
      throw new Unreadable(
        code === ENOENT || code === ESRCH
          ? `the process that listened on it (pid ${pid}) has exited`
          : `/proc/${pid} cannot be opened (errno ${code})`,
        code === ENOENT || code === ESRCH,
      );
    }
    this.proc = { dir, pid };
    return dir;
  }

  /** A system call; a failure as an error: the process gone (ENOENT, ESRCH under /proc/<pid>), or what failed. */
  call(number: number, what: string, a: number, b: Arg = null, c: Arg = null, d: Arg = null, e: Arg = null): number {
    const value = Number(this.c.syscall(number, a, b, c, d, e));
    if (value >= 0) return value;
    const code = this.errno();
    const gone = this.proc !== undefined && (code === ENOENT || code === ESRCH);
    throw new Unreadable(
      gone ? `the process that listened on it (pid ${this.proc?.pid}) exited while it was read` : `${what} failed (errno ${code})`,
      gone,
    );
  }

  /** The inode of the socket at the other end of connected unix socket `fd`, asked of the kernel's sock_diag. */
  serverEnd(fd: number): number {
    // Socket inodes are 32-bit (get_next_ino), as sock_diag's udiag_ino is.
    const mine = this.statx(fd, "", AT_EMPTY_PATH).ino;
    // Non-blocking: the answer is there at once or not at all, never waited for.
    const nl = this.call(NR.socket, "socket(NETLINK_SOCK_DIAG)", AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    try {
      // struct nlmsghdr (16 bytes), then struct unix_diag_req (24 bytes).
      const request = new Uint32Array(10);
      request[0] = 40;
      request[1] = SOCK_DIAG_BY_FAMILY | (NLM_F_REQUEST << 16);
      request[2] = 1;
      request[4] = AF_UNIX;
      request[5] = 0xffffffff; // every state
      request[6] = mine;
      request[7] = UDIAG_SHOW_PEER;
      request[8] = request[9] = 0xffffffff; // no cookie: look the socket up by inode alone
      this.call(NR.write, "sock_diag request", nl, request, 40);
      // The kernel answers within write(): the reply is queued already.
      const n = this.call(NR.read, "sock_diag answer", nl, this.buffer, this.buffer.byteLength);
      const reply = new DataView(this.buffer.buffer, 0, n);
      const type = n >= 16 ? reply.getUint16(4, true) : -1;
      if (type === NLMSG_ERROR) throw new Unreadable(`sock_diag refused (errno ${-reply.getInt32(16, true)}; is the kernel's unix_diag available?)`);
      if (type !== SOCK_DIAG_BY_FAMILY) throw new Unreadable(`sock_diag answered message type ${type}`);
      // struct unix_diag_msg (16 bytes) after the header, then attributes (u16 length, u16 type, value), 4-byte aligned.
      const end = Math.min(n, reply.getUint32(0, true));
      for (let at = 32; at + 8 <= end;) {
        const length = reply.getUint16(at, true);
        if (length < 4) break;
        if (reply.getUint16(at + 2, true) === UNIX_DIAG_PEER && length >= 8) return reply.getUint32(at + 4, true);
        at += (length + 3) & ~3;
      }
      throw new Unreadable("the connection has no other end any more (the server closed it)");
    } finally {
      this.close(nl);
    }
  }

  /** Whether one of the process's descriptors (/proc/<pid>/fd/*) is socket:[inode]; descriptor `first` is looked at first. */
  holdsSocket(inode: number, first: number | undefined): boolean {
    const { dir } = this.proc as { dir: number };
    const wanted = encoder.encode(`socket:[${inode}]`);
    const link = new Uint8Array(wanted.byteLength + 1);
    const isWanted = (at: number, name: Uint8Array): boolean => {
      if (Number(this.c.syscall(NR.readlinkat, at, name, link, link.byteLength, null)) !== wanted.byteLength) return false;
      for (let i = 0; i < wanted.byteLength; i++) if (link[i] !== wanted[i]) return false;
      return true;
    };
    if (first !== undefined && isWanted(dir, this.path(`fd/${first}`))) return true;
    const fds = this.call(NR.openat, "/proc/<pid>/fd", dir, this.path("fd"), O_RDONLY_CLOEXEC);
    try {
      const entries = new Uint8Array(8192);
      const name = new Uint8Array(24);
      for (;;) {
        const n = this.call(NR.getdents64, "getdents64", fds, entries, entries.byteLength);
        if (n === 0) return false;
        // struct linux_dirent64: d_ino (8), d_off (8), d_reclen (u16 at 16), d_type (1), d_name (NUL-terminated, at 19).
        for (let at = 0; at < n; at += (entries[at + 16] as number) | ((entries[at + 17] as number) << 8)) {
          let length = 0;
          for (let byte = entries[at + 19] as number; byte !== 0 && length < name.byteLength - 1; byte = entries[at + 19 + length] as number)
            name[length++] = byte;
          if (name[0] === 0x2e) continue; // "." and ".."
          name[length] = 0;
          if (isWanted(fds, name)) return true;
        }
      }
    } finally {
      this.close(fds);
    }
  }

  /** A file under /proc/<pid>, whole. */
  file(name: string): Uint8Array {
    const { dir } = this.proc as { dir: number };
    const fd = this.call(NR.openat, `/proc/<pid>/${name}`, dir, this.path(name), O_RDONLY_CLOEXEC);
    try {
      let data = this.buffer;
      let total = 0;
      for (;;) {
        if (total === data.byteLength) {
          if (total >= MAX_FILE_BYTES) throw new Unreadable(`/proc/${this.proc?.pid}/${name} is larger than ${MAX_FILE_BYTES} bytes`);
          const grown = new Uint8Array(data.byteLength * 4);
          grown.set(data);
          data = grown;
        }
        const n = this.call(NR.read, `/proc/<pid>/${name}`, fd, data.subarray(total), data.byteLength - total);
        if (n === 0) return data.slice(0, total);
        total += n;
      }
    } finally {
      this.close(fd);
    }
  }

  /** A file's device and inode (a magic link like exe followed), and its path for messages. */
  identity(dir: number, name: string): FileIdentity {
    const { dev, ino, inoHigh } = this.statx(dir, name, 0);
    const n = Number(this.c.syscall(NR.readlinkat, dir, this.path(name), this.buffer, 4096, null));
    return { id: fileIdentityId(dev, inoHigh, ino), path: n > 0 ? decoder.decode(this.buffer.subarray(0, n)) : name };
  }

  /** The device ("major:minor") and inode (its low and high 32 bits) of a path, or of descriptor `dir` itself with AT_EMPTY_PATH. */
  private statx(dir: number, path: string, flags: number): { readonly dev: string; readonly ino: number; readonly inoHigh: number } {
    // struct statx: stx_ino (u64, little-endian) at byte 32, stx_dev_major and stx_dev_minor (u32) at 136 and 140, on every architecture.
    const out = new Uint32Array(64);
    this.call(NR.statx, `statx ${path || "(descriptor)"}`, dir, this.path(path), flags, STATX_INO, out);
    return { dev: `${out[34]}:${out[35]}`, ino: out[8] as number, inoHigh: out[9] as number };
  }
}
