/**
 * What each operating system gives Hookbox, chosen here and nowhere else. Every mechanism below
 * is Linux's best where Linux has one; each other platform gets a named fallback, and the places
 * that use them (bun.ts, bun-libc.ts, peer-credentials.ts, bun-daemon.ts, cpu-time.ts,
 * node-capability-io.ts, bun-dgram.ts) read this table instead of testing process.platform
 * themselves. test/runtime/platform.test.ts runs the selection for every platform Hookbox ships
 * for, with the platform faked. docs/release.md#platforms says what each fallback costs.
 */
export interface PlatformSupport {
  /** The C library bun:ffi opens for the calls below; undefined where Hookbox makes none. */
  readonly libc: string | undefined;
  /** How the daemon learns who connected to its socket; "none": the socket's permissions alone decide. */
  readonly peerCredentials: "SO_PEERCRED" | "getpeereid" | "none";
  /**
   * How `emit` (and doctor, the CLI, hookbox/client on Bun) proves that what answers on a unix
   * socket is this very Hookbox binary, uninjected, holding that connection (bun-peer.ts):
   * "procfs" (SO_PEERCRED, sock_diag and /proc/<pid>); "none": no daemon can be verified, so none
   * decides an event — emit evaluates every event in its own process.
   */
  readonly daemonProof: "procfs" | "none";
  /**
   * How a sandbox worker dies with its parent: "prctl" (the kernel SIGKILLs it, even stuck in
   * WebAssembly), or "stdin" (it exits when its stdin closes; a guest stuck in a loop is stopped
   * by the parent's own watchdog first).
   */
  readonly parentDeath: "prctl" | "stdin";
  /** The guest thread's CPU time read from outside it (cpu_ms backstop); "none": the in-guest interrupt alone. */
  readonly threadCpuClock: "procfs" | "none";
  /** What an open descriptor points at (the run capability's fd checks); "none": callers compare dev:ino. */
  readonly descriptorPaths: "procfs" | "none";
  /** open(2)'s O_CLOEXEC, for the daemon's inherited lock; undefined where there is no flock(2). */
  readonly openCloexec: number | undefined;
  /** Unix datagram sockets (syslog's /dev/log) through bun:ffi. */
  readonly unixDatagram: boolean;
  /** Hookbox's own socket-level calls through bun:ffi (bun-libc.ts), which know Linux's ABI only. */
  readonly rawSockets: boolean;
  /** The executable's name as the OS looks it up. */
  readonly executableSuffix: "" | ".exe";
}

const NONE: PlatformSupport = {
  libc: undefined,
  peerCredentials: "none",
  daemonProof: "none",
  parentDeath: "stdin",
  threadCpuClock: "none",
  descriptorPaths: "none",
  openCloexec: undefined,
  unixDatagram: false,
  rawSockets: false,
  executableSuffix: "",
};

/** The selection for one platform and architecture (Node's names: process.platform, process.arch). */
export function platformSupport(platform: string, arch: string): PlatformSupport {
  switch (platform) {
    case "linux":
      return {
        libc: "libc.so.6",
        peerCredentials: "SO_PEERCRED",
        // bun-peer.ts reads struct layouts of Linux's generic ABI, as bun-libc.ts does.
        daemonProof: arch === "x64" || arch === "arm64" ? "procfs" : "none",
        parentDeath: "prctl",
        threadCpuClock: "procfs",
        descriptorPaths: "procfs",
        openCloexec: 0o2000000,
        unixDatagram: true,
        // Linux's generic ABI: the constants bun-libc.ts uses hold on x86-64 and arm64.
        rawSockets: arch === "x64" || arch === "arm64",
        executableSuffix: "",
      };
    case "darwin":
      // LOCAL_PEERPID and proc_pidpath would name the process, but nothing ties it to the
      // connection (no sock_diag, no /proc/<pid>/fd) nor reads its environment as started: a
      // daemon there is not verified, so emit evaluates in its own process (docs/release.md#platforms).
      return { ...NONE, libc: "libSystem.B.dylib", peerCredentials: "getpeereid", openCloexec: 0x1000000 };
    case "freebsd":
    case "openbsd":
      return { ...NONE, libc: "libc.so", peerCredentials: "getpeereid" };
    case "win32":
      // AF_UNIX sockets exist on Windows 10 1803 and later, without peer credentials: the socket's
      // directory (in the user's profile) is what keeps other users out.
      return { ...NONE, executableSuffix: ".exe" };
    default:
      return NONE;
  }
}

/** This process's platform. */
export const PLATFORM: PlatformSupport = platformSupport(process.platform, process.arch);
