import { PLATFORM } from "./platform.ts";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { lookup } from "node:dns/promises";
import { constants, type BigIntStats, type Dirent } from "node:fs";
import { access, lstat, mkdir, open, readdir, readlink, realpath, rename, stat, unlink, type FileHandle } from "node:fs/promises";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { dirname } from "node:path";
import type {
  CapabilityIO,
  CapturedOutput,
  DirectoryListing,
  FileInfo,
  FileKind,
  HttpGetRequest,
  HttpResponse,
  OpenedFile,
  ResolvedAddress,
  SpawnRequest,
  SpawnResult,
} from "./capability-io.ts";

/** CapabilityIO on node:* APIs (also used by the Bun and Deno adapters). */
export const nodeCapabilityIO: CapabilityIO = {
  realPath: (path) => realpath(path),
  lstat: async (path) => infoOf(await lstat(path, { bigint: true })),
  openFile,
  listDirectory,
  isExecutable: async (path) => {
    try {
      if (!(await stat(path)).isFile()) return false;
      await access(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  spawn: spawnCapped,
  resolveHost: async (hostname) => {
    const found = await lookup(hostname, { all: true, verbatim: true });
    return found.map((entry): ResolvedAddress => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
  },
  httpGet: (request) => httpRequest("GET", request, undefined),
  httpPost: (request) => httpRequest("POST", request, request.body),
  readPrivateFile,
  writePrivateFile,
};

function flag(name: "O_NOFOLLOW" | "O_NONBLOCK" | "O_DIRECTORY"): number {
  const value = constants[name];
  // Without these flags the race-free checks cannot hold: refuse rather than degrade silently.
  if (typeof value !== "number") throw Object.assign(new Error(`${name} is not supported on this platform`), { code: "ENOTSUP" });
  return value;
}

function kindOf(
  entry: Pick<Dirent, "isFile" | "isDirectory" | "isSymbolicLink" | "isFIFO" | "isSocket" | "isCharacterDevice" | "isBlockDevice">,
): FileKind {
  if (entry.isFile()) return "file";
  if (entry.isDirectory()) return "directory";
  if (entry.isSymbolicLink()) return "symlink";
  if (entry.isFIFO()) return "fifo";
  if (entry.isSocket()) return "socket";
  if (entry.isCharacterDevice()) return "char-device";
  if (entry.isBlockDevice()) return "block-device";
  return "unknown";
}

function infoOf(stats: BigIntStats): FileInfo {
  return { kind: kindOf(stats), size: Number(stats.size), id: `${stats.dev}:${stats.ino}`, mtimeMs: Number(stats.mtimeMs) };
}

/** What an open descriptor really points at. Only Linux can say; elsewhere callers compare dev:ino. */
async function descriptorPath(fd: number): Promise<string | undefined> {
  if (PLATFORM.descriptorPaths !== "procfs") return undefined;
  try {
    return await readlink(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** Read from the start up to `maxBytes`, sizing the buffer from the file's size (it may still grow). */
async function readUpTo(handle: FileHandle, maxBytes: number, sizeHint: number): Promise<Uint8Array> {
  let buffer = Buffer.allocUnsafe(Math.max(0, Math.min(maxBytes, sizeHint + 1)));
  let filled = 0;
  for (;;) {
    if (filled === buffer.length) {
      if (buffer.length >= maxBytes) break;
      const grown = Buffer.allocUnsafe(Math.min(maxBytes, Math.max(buffer.length * 2, 64 * 1024)));
      buffer.copy(grown, 0, 0, filled);
      buffer = grown;
    }
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return new Uint8Array(buffer.buffer, buffer.byteOffset, filled);
}

async function openFile(path: string): Promise<OpenedFile> {
  const handle = await open(path, constants.O_RDONLY | flag("O_NOFOLLOW") | flag("O_NONBLOCK"));
  try {
    const info = infoOf(await handle.stat({ bigint: true }));
    const realPath = await descriptorPath(handle.fd);
    return { info, realPath, read: (maxBytes) => readUpTo(handle, maxBytes, info.size), close: () => handle.close() };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function listDirectory(path: string): Promise<DirectoryListing> {
  const handle = await open(path, constants.O_RDONLY | flag("O_DIRECTORY") | flag("O_NOFOLLOW"));
  try {
    const info = infoOf(await handle.stat({ bigint: true }));
    const realPath = await descriptorPath(handle.fd);
    // Reading through the descriptor lists what was opened, even if `path` was swapped since.
    const source = realPath === undefined ? path : `/proc/self/fd/${handle.fd}`;
    const entries = await readdir(source, { withFileTypes: true });
    return { info, realPath, entries: entries.map((entry) => ({ name: entry.name, kind: kindOf(entry) })) };
  } finally {
    await handle.close();
  }
}

/** Keeps the first `headBytes` and the last `tailBytes` of a stream, drops the middle, counts all. */
class Capture {
  private readonly head: Buffer[] = [];
  private headLength = 0;
  private readonly tail: Buffer[] = [];
  private tailLength = 0;
  private total = 0;

  constructor(private readonly limits: { readonly headBytes: number; readonly tailBytes: number }) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headLength < this.limits.headBytes) {
      const take = Math.min(rest.length, this.limits.headBytes - this.headLength);
      this.head.push(rest.subarray(0, take));
      this.headLength += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.limits.tailBytes === 0) return;
    this.tail.push(rest);
    this.tailLength += rest.length;
    while (this.tail.length > 1 && this.tailLength - (this.tail[0]?.length ?? 0) >= this.limits.tailBytes) {
      this.tailLength -= this.tail.shift()?.length ?? 0;
    }
  }

  result(): CapturedOutput {
    const tail = Buffer.concat(this.tail);
    return {
      head: new Uint8Array(Buffer.concat(this.head)),
      tail: new Uint8Array(tail.subarray(Math.max(0, tail.length - this.limits.tailBytes))),
      totalBytes: this.total,
    };
  }
}

/** How long to wait for the pipes to close after the child exited (a setsid'd grandchild may hold them). */
const PIPE_GRACE_MS = 200;

function spawnCapped(request: SpawnRequest): Promise<SpawnResult> {
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      // detached: the child leads a new process group (and session), so the whole group can be killed.
      child = spawn(request.file, [...request.args], {
        cwd: request.cwd,
        env: { ...request.env },
        detached: true,
        shell: false,
        windowsHide: true,
        stdio: [request.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      });
    } catch (error) {
      reject(error);
      return;
    }
    const stdout = new Capture(request.stdout);
    const stderr = new Capture(request.stderr);
    let timedOut = false;
    let aborted = false;
    let settled = false;
    let exit: { code: number | null; signal: string | null } | undefined;
    let grace: ReturnType<typeof setTimeout> | undefined;

    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    const onAbort = (): void => {
      aborted = true;
      killGroup();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, request.timeoutMs);
    const cleanup = (): void => {
      settled = true;
      clearTimeout(timer);
      if (grace) clearTimeout(grace);
      request.signal.removeEventListener("abort", onAbort);
    };

    child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error) => {
      if (settled) return;
      killGroup();
      cleanup();
      reject(error);
    });
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      // A background grandchild must not outlive the call: the group goes with its leader.
      killGroup();
      grace = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }, PIPE_GRACE_MS);
    });
    child.on("close", () => {
      if (settled) return;
      cleanup();
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut,
        aborted,
        stdout: stdout.result(),
        stderr: stderr.result(),
      });
    });
    if (request.stdin !== undefined && child.stdin) {
      child.stdin.on("error", () => undefined); // EPIPE when the child does not read its input
      child.stdin.end(request.stdin);
    }
    if (request.signal.aborted) onAbort();
    else request.signal.addEventListener("abort", onAbort, { once: true });
  });
}

function httpRequest(method: "GET" | "POST", request: HttpGetRequest, body: string | undefined): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(request.url);
    const client = url.protocol === "https:" ? https : http;
    const { address, family } = request.address;
    let settled = false;
    const finish = (outcome: { ok: true; value: HttpResponse } | { ok: false; error: unknown }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal.removeEventListener("abort", onAbort);
      if (outcome.ok) resolve(outcome.value);
      else reject(outcome.error);
    };
    const req = client.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method,
        headers: body === undefined ? request.headers : { ...request.headers, "content-length": String(Buffer.byteLength(body)) },
        agent: false,
        // The address was checked by policy: connect to it and nothing else (no second DNS answer).
        lookup: (_hostname, options, callback) => {
          const all = (options as { all?: boolean }).all;
          if (all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
          else (callback as (e: null, a: string, f: number) => void)(null, address, family);
        },
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let length = 0;
        let truncated = false;
        const done = (): void =>
          finish({
            ok: true,
            value: { status: response.statusCode ?? 0, headers: headersOf(response), body: new Uint8Array(Buffer.concat(chunks)), truncated },
          });
        response.on("data", (chunk: Buffer) => {
          const room = request.maxBodyBytes - length;
          if (chunk.length > room) {
            chunks.push(chunk.subarray(0, Math.max(0, room)));
            length = request.maxBodyBytes;
            truncated = true;
            done();
            req.destroy();
            return;
          }
          chunks.push(chunk);
          length += chunk.length;
        });
        response.on("end", done);
        response.on("error", (error) => finish({ ok: false, error }));
        response.on("close", () => {
          if (!response.complete)
            finish({ ok: false, error: Object.assign(new Error("the connection closed before the response was complete"), { code: "ECONNRESET" }) });
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy(Object.assign(new Error(`no complete answer within ${request.timeoutMs} ms`), { code: "ETIMEDOUT" }));
    }, request.timeoutMs);
    const onAbort = (): void => {
      req.destroy(Object.assign(new Error("the invocation ended"), { code: "ABORT_ERR" }));
    };
    req.on("error", (error) => finish({ ok: false, error }));
    if (request.signal.aborted) onAbort();
    else request.signal.addEventListener("abort", onAbort, { once: true });
    req.end(body);
  });
}

function headersOf(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

async function readPrivateFile(path: string, maxBytes: number): Promise<Uint8Array | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | flag("O_NOFOLLOW") | flag("O_NONBLOCK"));
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: "EINVAL" });
    const bytes = await readUpTo(handle, maxBytes + 1, stats.size);
    if (bytes.length > maxBytes) throw Object.assign(new Error(`${path} is larger than ${maxBytes} bytes`), { code: "EFBIG" });
    return bytes;
  } finally {
    await handle.close();
  }
}

async function writePrivateFile(path: string, data: Uint8Array): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | flag("O_NOFOLLOW"), 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
