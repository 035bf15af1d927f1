/**
 * The file, process and network primitives the capabilities (src/capabilities) need, as the
 * runtime provides them. Owned by the capabilities work: every primitive a capability uses
 * to touch the world is declared here and implemented per runtime (node-capability-io.ts).
 *
 * These primitives decide nothing: policy lives in src/capabilities. They only give policy what
 * it needs to be race-free — open without following a final symlink, and report what a
 * descriptor really points at, so a checked path swapped between check and open is caught.
 * Errors are rejected as the runtime raised them, with a `code` (ENOENT, ELOOP, EACCES …).
 */

export type FileKind = "file" | "directory" | "symlink" | "fifo" | "socket" | "char-device" | "block-device" | "unknown";

export interface FileInfo {
  readonly kind: FileKind;
  /** Bytes (as reported by stat; 0 for most special files). */
  readonly size: number;
  /** Device and inode, `dev:ino`: the identity of the file, to compare two looks at "the same" path. */
  readonly id: string;
  /** Last modification, milliseconds since the epoch. */
  readonly mtimeMs: number;
}

/** A file opened read-only, without following a final symlink and without blocking on a FIFO. */
export interface OpenedFile {
  /** fstat of the descriptor: what was really opened. */
  readonly info: FileInfo;
  /** Where the descriptor points (Linux: /proc/self/fd/N); undefined where the OS cannot tell. */
  readonly realPath: string | undefined;
  /** Read from the start, at most `maxBytes` (never more, whatever the file's size). */
  read(maxBytes: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

export interface DirectoryEntry {
  readonly name: string;
  /** The entry itself (symlinks are reported as symlinks, never followed). */
  readonly kind: FileKind;
}

/** The entries of a directory opened without following a final symlink. */
export interface DirectoryListing {
  readonly info: FileInfo;
  /** Where the opened descriptor points; undefined where the OS cannot tell. */
  readonly realPath: string | undefined;
  readonly entries: readonly DirectoryEntry[];
}

/** Output kept from one stream: its first `headBytes`, its last `tailBytes`, and how much there was. */
export interface CapturedOutput {
  readonly head: Uint8Array;
  /** Empty unless the stream was longer than headBytes + tailBytes. */
  readonly tail: Uint8Array;
  readonly totalBytes: number;
}

export interface SpawnRequest {
  /** Absolute path of the program; argv[0] is this path. Never run through a shell. */
  readonly file: string;
  readonly args: readonly string[];
  /** Absolute working directory. */
  readonly cwd: string;
  /** The child's whole environment (nothing is inherited). */
  readonly env: Readonly<Record<string, string>>;
  /** Written to the child's stdin, then closed; absent: stdin is /dev/null. */
  readonly stdin?: string;
  /** Wall clock; at the deadline the child's whole process group is killed (SIGKILL). */
  readonly timeoutMs: number;
  readonly stdout: { readonly headBytes: number; readonly tailBytes: number };
  readonly stderr: { readonly headBytes: number; readonly tailBytes: number };
  /** Aborting kills the child's whole process group. */
  readonly signal: AbortSignal;
}

export interface SpawnResult {
  /** Exit status; null when the child was killed by a signal. */
  readonly exitCode: number | null;
  /** The signal that ended the child, e.g. "SIGKILL". */
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  readonly stdout: CapturedOutput;
  readonly stderr: CapturedOutput;
}

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

export interface HttpGetRequest {
  /** http: or https: URL; the connection goes to `address`, TLS is verified against the URL's host. */
  readonly url: string;
  readonly address: ResolvedAddress;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** The body is read up to this many bytes; past it the response is cut and `truncated` set. */
  readonly maxBodyBytes: number;
  readonly signal: AbortSignal;
}

/** A POST of `body` (the model endpoints' JSON APIs), otherwise as a GET. */
export interface HttpPostRequest extends HttpGetRequest {
  readonly body: string;
}

export interface HttpResponse {
  readonly status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  readonly truncated: boolean;
}

export interface CapabilityIO {
  /** realpath(3): the absolute path with every symlink, `.` and `..` resolved. */
  realPath(path: string): Promise<string>;
  /** lstat: the entry itself, a symlink is not followed. */
  lstat(path: string): Promise<FileInfo>;
  /** Open read-only with O_NOFOLLOW | O_NONBLOCK (a final symlink fails with ELOOP; a FIFO does not block). */
  openFile(path: string): Promise<OpenedFile>;
  /** Open a directory with O_DIRECTORY | O_NOFOLLOW and list the opened descriptor's entries. */
  listDirectory(path: string): Promise<DirectoryListing>;
  /** True for a regular file (symlinks followed) with an execute bit. */
  isExecutable(path: string): Promise<boolean>;
  /** Run a program without a shell, in its own process group, with caps on time and output. */
  spawn(request: SpawnRequest): Promise<SpawnResult>;
  /** DNS: every address the name resolves to (as the system resolver answers). */
  resolveHost(hostname: string): Promise<readonly ResolvedAddress[]>;
  /** One GET, no redirect followed, no proxy, no compression, connected to the given address. */
  httpGet(request: HttpGetRequest): Promise<HttpResponse>;
  /** One POST, under the same rules as httpGet. */
  httpPost(request: HttpPostRequest): Promise<HttpResponse>;
  /** Read a small private file without following a symlink; undefined when it does not exist. */
  readPrivateFile(path: string, maxBytes: number): Promise<Uint8Array | undefined>;
  /** Replace a file atomically (temp file in the same directory, fsync, rename), mode 0600, directory 0700. */
  writePrivateFile(path: string, data: Uint8Array): Promise<void>;
}
