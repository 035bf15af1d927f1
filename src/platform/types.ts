import type { WorkerIO, WorkerProcess } from "../../sandbox/index.ts";
import type { CapabilityIO } from "./capability-io.ts";
import type { HttpReply, HttpRequestInit, ListenTarget } from "./http-types.ts";
import type { PackageIO } from "./package-io.ts";

import type { PeerJudge, PeeredReply } from "./peer-types.ts";

export type { HttpReply, HttpRequestInit, ListenTarget } from "./http-types.ts";
export type { FileIdentity, PeerEvidence, PeerJudge, PeerProcess, PeeredReply } from "./peer-types.ts";

/**
 * Everything Hookbox needs from the JavaScript runtime it runs on. `src/platform/*` are the only
 * files allowed to use Bun.*, Deno.* or node:* APIs (enforced by eslint.config.js); the rest of
 * the code receives a RuntimeHost. The Node implementation uses node:* APIs, which Bun and Deno
 * also provide; their adapters override only what differs.
 */
export interface RuntimeHost {
  readonly name: "bun" | "node" | "deno";
  /** Command-line arguments after the program (and script) name. */
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly pid: number;
  /** This process's effective uid (whom the daemon serves); undefined where there is none (Windows). */
  uid(): number | undefined;
  cwd(): string;
  homeDir(): string;
  /** This machine's name (audit export names where a record comes from). */
  hostname(): string;
  /**
   * The absolute path of the hookbox executable this process is, when it runs as the compiled
   * binary (what `install-agent` writes into an agent's settings): the path it was invoked by
   * (a symlink kept as one) when that leads to this binary, else the binary's real path.
   * Undefined when it runs from sources (node, deno, bun run), whose executable is the runtime.
   */
  binaryPath(): string | undefined;
  cpuCount(): number;
  /** End the process, once every stdout write is out (also those whose promise was dropped). */
  exit(code: number): Promise<never>;
  /** Written in order after every earlier write. */
  writeStdout(text: string): Promise<void>;
  writeStderr(text: string): void;
  /**
   * Read all of stdin as UTF-8. More than `maxBytes` rejects with a RangeError; bytes that are not
   * UTF-8 reject with a TypeError (never replaced: a path with a replaced byte is another path).
   */
  readStdin(maxBytes: number): Promise<string>;
  stdinIsTTY(): boolean;
  /** The width of the terminal stderr (else stdout) writes to; undefined when neither is a terminal. */
  terminalColumns?(): number | undefined;
  /** The Hookbox binary this process runs as; undefined when running from sources (node, bun or deno with a script). */
  executablePath(): string | undefined;
  /** Subscribe to a termination signal; returns the unsubscribe function. */
  onSignal(signal: "SIGTERM" | "SIGINT" | "SIGHUP", listener: () => void): () => void;
  readonly sandbox: SandboxHost;
  readonly fs: FileHost;
  /** Primitives for the handlers' host APIs (src/capabilities). */
  readonly capabilityIO: CapabilityIO;
  /** Hashes, signatures and gzip for hook packages (src/hooks/packages). */
  readonly packageIO: PackageIO;
  readonly net: NetHost;
  /** Where notifications go out: a local command, a webhook, the desktop (src/capabilities/notify). */
  readonly notify: NotifyIO;
  readonly digest: DigestHost;
  /** Starting a background daemon; absent where Hookbox does not run as its binary (node, deno, bun run). */
  readonly daemon?: DaemonHost;
  /** One line typed at the terminal (without its newline); undefined at end of input. For consent prompts. */
  readStdinLine(maxChars: number): Promise<string | undefined>;
  /** Sockets that carry log messages out (the audit export's syslog). */
  readonly sockets: SocketHost;
  /** The person's desktop: notifications and a browser, where this machine has them. */
  readonly desktop: DesktopHost;
}

/**
 * The three ways a notification leaves (src/capabilities/notify decides which, from the operator file). Each
 * is bounded in time and never runs a shell.
 */
export interface NotifyIO {
  /** Run argv (argv[0] looked up on PATH unless absolute) with `stdin`; the exit status, or null when it was killed or could not start. */
  command(argv: readonly string[], stdin: string, timeoutMs: number): Promise<number | null>;
  /** POST `body` as application/json; the response's status. Rejects when no answer came. */
  postJson(url: string, body: string, timeoutMs: number): Promise<number>;
  /** The desktop's own notification, where this machine has one; false where not. */
  desktop(title: string, body: string): boolean;
}

/** Hashes for content addressing and for authenticating what Hookbox wrote itself (the snapshot cache). */
export interface DigestHost {
  sha256Hex(data: string | Uint8Array): Promise<string>;
  hmacSha256Hex(key: string, data: string): Promise<string>;
  /** Compare two hex digests in constant time. */
  equalHex(a: string, b: string): Promise<boolean>;
  randomHex(bytes: number): Promise<string>;
}

/** An exclusive advisory lock (flock) held through an open descriptor; released when closed or when the process exits. */
export interface FileLock {
  readonly fd: number;
  release(): void;
}

/** What `emit` needs to start a daemon, and the daemon to keep the lock it was handed. */
export interface DaemonHost {
  /** Lock `path` (created 0600) without waiting: the lock, or undefined when another process holds it. */
  tryLock(path: string): Promise<FileLock | undefined>;
  /** In the started daemon: keep descriptor `fd` (the lock it inherited) from its own children; false when it holds no lock. */
  holdInheritedLock(fd: number): boolean;
  /**
   * Start this binary with `args` in its own session, stdin closed, stdout and stderr appended
   * to `logFile` (0600), `lock` handed over as descriptor 3; returns its pid without waiting.
   */
  spawnDetached(options: {
    readonly args: readonly string[];
    readonly env: Readonly<Record<string, string>>;
    readonly logFile: string;
    readonly lock: FileLock;
    readonly cwd: string;
  }): number;
}

/**
 * Notifications and a browser through the platform's own commands (notify-send and xdg-open on
 * Linux, osascript and open on macOS), started with argv, never a shell. Each returns false where
 * there is no such command or no desktop session, and never throws.
 */
export interface DesktopHost {
  notify(title: string, body: string): boolean;
  /** Open a file or URL in the person's browser. Pass a file: a URL on the command line is readable by every local user (ps). */
  open(target: string): boolean;
}

/** Where syslog messages go: a local socket (datagram, as /dev/log is, or stream), or a relay. */
export type MessageTarget =
  | { readonly kind: "unix-dgram"; readonly path: string }
  | { readonly kind: "unix-stream"; readonly path: string }
  | { readonly kind: "udp"; readonly hostname: string; readonly port: number }
  | { readonly kind: "tcp"; readonly hostname: string; readonly port: number };

/** One connection or datagram socket for messages. Sends reject on failure; the caller retries. */
export interface MessageSocket {
  /** Datagram targets: one datagram per call; stream targets: the bytes as given (the caller frames them). */
  send(bytes: Uint8Array): Promise<void>;
  close(): void;
}

export interface SocketHost {
  /** Open (connect, for stream targets) within `timeoutMs`. A stream socket that breaks fails its next send. */
  open(target: MessageTarget, timeoutMs: number): Promise<MessageSocket>;
}
/**
 * The part of a RuntimeHost that `hookbox emit` needs to answer through a daemon. On Bun it is
 * built from Bun's globals alone: loading node:fs, node:util or node:child_process costs 1–3 ms
 * each at startup, and emit starts once per agent event. `full()` loads the whole adapter, for
 * emit's in-process evaluation when no daemon answers.
 */
export interface LeanHost extends Pick<
  RuntimeHost,
  "name" | "args" | "env" | "uid" | "executablePath" | "cwd" | "homeDir" | "exit" | "writeStdout" | "writeStderr" | "readStdin"
> {
  readonly net: Pick<NetHost, "request" | "requestWithPeer" | "peersUnverifiable">;
  /** The absolute path this binary was invoked as (argv[0], found on PATH when bare); undefined when running from sources. */
  invokedAs?(): string | undefined;
  full(): Promise<RuntimeHost>;
}

/**
 * Who is on the other end of a connection, as the kernel tells it (SO_PEERCRED, getpeereid):
 * `peer` is set on listeners that can read it (`Listener.peerCredentials`), with `error` when the
 * credentials of this one connection could not be read.
 */
export interface ConnectionInfo {
  readonly peer?: { readonly uid: number; readonly pid?: number } | { readonly error: string };
  /**
   * The connection's descriptor in this process, where the listener knows it (unix sockets on
   * Bun). Told to the client in every answer (CONNECTION_FD_HEADER): where a client verifying
   * this daemon finds the server end of its connection without listing every descriptor.
   */
  readonly fd?: number;
}

export type FetchHandler = (request: Request, connection?: ConnectionInfo) => Response | Promise<Response>;

/** A unix socket path, or a loopback TCP address. */

export interface Listener {
  /** "unix:/path" or "http://127.0.0.1:port". */
  readonly address: string;
  /** Whether each connection's handler is told its peer's uid (unix sockets on Bun, Linux and macOS). */
  readonly peerCredentials: boolean;
  /** Stop accepting; in-flight requests get up to `graceMs` to finish, then connections are closed. */
  close(graceMs: number): Promise<void>;
}

export interface NetHost {
  /** Serve a fetch handler (the Hono app) — the only listener Hookbox has. */
  serve(handler: FetchHandler, target: ListenTarget): Promise<Listener>;
  /** One HTTP request to a local listener; rejects on connection failure or timeout. */
  request(target: ListenTarget, init: HttpRequestInit): Promise<HttpReply>;
  /**
   * One request to a unix socket, with what the kernel says of the process at the other end
   * (PeerEvidence): read once connected and handed to `judge` (src/platform/peer-trust.ts), which
   * may refuse it before anything is sent; read again, with whether that process holds this
   * connection, once the answer is in. Where this runtime cannot read it, `unverifiable` says why
   * and nothing is sent. Rejects as `request`.
   */
  requestWithPeer(path: string, init: HttpRequestInit, judge: PeerJudge): Promise<PeeredReply>;
  /** Why requestWithPeer cannot read a peer here (what its `unverifiable` would say); undefined where it can. */
  peersUnverifiable(): Promise<string | undefined>;
}

export interface WorkerSpawnOptions {
  /**
   * The worker runs one evaluation and ends with its parent (emit without a daemon). Bun's
   * optimizing WebAssembly tier is off in it: recompiling QuickJS's hot functions in the
   * background costs a short-lived process more CPU and time than the few hooks it runs gain
   * (BENCHMARKS.md, section E). A daemon's workers keep it: they run for hours.
   */
  readonly oneShot?: boolean;
}

/** What the QuickJS sandbox needs: the embedded wasm, and worker processes to run it in. */
export interface SandboxHost {
  loadQuickJsWasm(): Promise<Uint8Array>;
  /** Start a sandbox worker process (this program, in worker mode) with an empty environment. */
  spawnWorker(options?: WorkerSpawnOptions): WorkerProcess;
  /** Inside a worker process: the pipe to the parent. */
  workerIO(): WorkerIO;
  /**
   * Start a sandbox worker as a thread of this process (src/sandbox-thread.ts): for one-shot
   * evaluations on request (`emit --thread-worker`): no empty environment, no kill (thread-worker.ts, SECURITY.md).
   */
  spawnThreadWorker(): WorkerProcess;
  /** Inside a worker thread: the port to the thread that started it. */
  threadWorkerIO(): WorkerIO;
  /** Resident set size of a process, in bytes (undefined where it cannot be read). */
  rssBytes(pid: number): number | undefined;
}

export interface DirEntry {
  readonly name: string;
  /** Symlinks are reported as what they point to; dangling ones as "other". */
  readonly kind: "file" | "dir" | "other";
}

export interface FileHost {
  readText(path: string): Promise<string>;
  exists(path: string): Promise<boolean>;
  listDir(path: string): Promise<DirEntry[]>;
  realpath(path: string): Promise<string>;
  /** readlink(2): a symbolic link's target as stored (may be relative to the link's directory). */
  readLink(path: string): Promise<string>;
  /** Create a symbolic link at `path` pointing at `target` (stored as given). */
  symlink(target: string, path: string): Promise<void>;
  /** Call `onChange` (debounced) when anything under these directories changes; missing ones are ignored. */
  watch(dirs: readonly string[], onChange: () => void, debounceMs?: number): { close(): void };
  /** mkdir -p with `mode` for what it creates; `enforceMode` also chmods the last directory if it existed (private dirs). */
  mkdirp(path: string, mode: number, enforceMode?: boolean): Promise<void>;
  /** Permission bits of a file, or undefined when it does not exist. */
  mode(path: string): Promise<number | undefined>;
  /** Write via a temporary file and rename: readers see the old or the new content, never half. */
  writeTextAtomic(path: string, text: string, mode: number): Promise<void>;
  /** writeTextAtomic for bytes. */
  writeBytesAtomic(path: string, data: Uint8Array, mode: number): Promise<void>;
  /** Copy `from` over `to` the same way (a temporary file beside `to`, then rename), with `mode`. */
  copyFileAtomic(from: string, to: string, mode: number): Promise<void>;
  readBytes(path: string): Promise<Uint8Array>;
  /** Open for appending (created with `mode`); every append is one write(2) of the whole text. */
  openAppend(path: string, mode: number): Promise<AppendHandle>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
  /** Size in bytes, or undefined when the file does not exist. */
  size(path: string): Promise<number | undefined>;
  /** The last `bytes` bytes of a file, as they are (a window may start inside a UTF-8 sequence). */
  readTail(path: string, bytes: number): Promise<Uint8Array>;
  /**
   * Up to `maxBytes` from `offset`, with the identity (device and inode) and size of the file
   * the bytes came from, read through one open handle: a follower tells a rotated file from a
   * grown one. Undefined when there is no file.
   */
  readRange(path: string, offset: number, maxBytes: number): Promise<FileRange | undefined>;
  truncate(path: string, size: number): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
  /** A new private (0700) directory under the system's temporary directory. */
  makeTempDir(prefix: string): Promise<string>;
  /** rm -rf. */
  removeTree(path: string): Promise<void>;
  /**
   * A token that changes when the file or directory at `path` changes (mtime, ctime, size,
   * inode; "missing" when there is none): a cheap check that what was loaded is still current.
   */
  stamp(path: string): Promise<string>;
  /** rmdir: removes the directory only if it is empty; false when it is not (or is missing). */
  removeEmptyDir(path: string): Promise<boolean>;
  /** What is at a path, without following a final symlink. */
  kind(path: string): Promise<"file" | "dir" | "socket" | "symlink" | "other" | "missing">;
  /** lstat(2): what is at a path and who owns it. Rejects with the OS's error (its `code`: ENOENT, EACCES …). */
  owner(path: string): Promise<{ readonly kind: "file" | "dir" | "socket" | "symlink" | "other"; readonly uid: number }>;
  /** The audit log's append lock and the check made under it (src/platform/lock.ts, src/decide/audit/sink.ts). */
  readonly lock: LockIO;
}

/**
 * Synchronous primitives for a lock held for microseconds and the work done under it: each is one
 * system call (or a hash), where an asynchronous one would first wait its turn in the thread pool
 * (~15 µs each under Bun).
 */
export interface LockIO {
  /** symlink(2) `path` → `token`: a lock file created with its content in one step; false when something is at `path`. */
  create(path: string, token: string): boolean;
  /** The token of the lock at `path`; undefined when there is none; "" for something there that is not a lock (not a symbolic link). */
  holder(path: string): string | undefined;
  /** unlink(2); nothing when it is gone already. */
  remove(path: string): void;
  /**
   * Whether a process with this id exists (kill(pid, 0); one the user may not signal exists too):
   * a lock names its holder by pid, and a holder that no longer exists left its lock behind.
   */
  processExists(pid: number): boolean;
  /** FileHost.stamp, synchronously, with the size it saw; undefined when there is no file. */
  stamp(path: string): { readonly token: string; readonly size: number } | undefined;
  /** SHA-256 of `bytes` as lowercase hex: the audit chain hashes each line under the lock (WebCrypto's digest is asynchronous). */
  sha256(bytes: Uint8Array): string;
}

export interface FileRange {
  readonly id: string;
  readonly size: number;
  readonly bytes: Uint8Array;
}

export interface AppendHandle {
  append(text: string): Promise<void>;
  /** fsync: only power loss can still lose what was appended before it. */
  sync(): Promise<void>;
  close(): Promise<void>;
}
