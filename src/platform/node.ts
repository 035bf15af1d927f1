import { spawn } from "node:child_process";
import {
  closeSync,
  existsSync,
  lstatSync,
  fsyncSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  symlinkSync,
  unlinkSync,
  watch as watchFs,
  writeSync,
  type BigIntStats,
  type FSWatcher,
  type Stats,
} from "node:fs";
import {
  access,
  chmod,
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  readlink,
  realpath,
  rename,
  rm,
  rmdir,
  stat,
  symlink,
  truncate,
  writeFile,
} from "node:fs/promises";
import type * as NodeCryptoModule from "node:crypto";
import { createRequire } from "node:module";
import { availableParallelism, homedir, hostname, tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import type { WorkerIO, WorkerProcess } from "../../sandbox/index.ts";
import { LineSplitter, Tail } from "./lines.ts";
import type { CapabilityIO } from "./capability-io.ts";
import type { PackageIO } from "./package-io.ts";
import { threadCpuClock } from "./cpu-time.ts";
import { lazyAsyncMethods } from "./lazy.ts";
import { stdoutQueue } from "./stdout-queue.ts";
import { watchParentFromThread } from "./parent-death.ts";
import { nodeThreadIO, nodeThreadWorker } from "./thread-worker.ts";
import { createNotifyIO } from "./notify-io.ts";
import { createDesktopHost } from "./desktop.ts";
import type { DigestHost, FileHost, NetHost, RuntimeHost, SandboxHost, SocketHost } from "./types.ts";

const require = createRequire(import.meta.url);

/** The worker entry next to this folder; from TypeScript sources Node needs tsx to load it. */
function workerCommand(): { command: string; args: string[] } {
  const entry = fileURLToPath(new URL("../worker.ts", import.meta.url));
  if (entry.endsWith(".ts") && existsSync(entry)) {
    return { command: process.execPath, args: ["--import", require.resolve("tsx"), entry] };
  }
  return { command: process.execPath, args: [fileURLToPath(new URL("../worker.js", import.meta.url))] };
}

/**
 * The sandbox thread entry next to this folder. From TypeScript sources under Node, the thread
 * registers tsx's loader itself before importing it (an --import in a thread's execArgv is not
 * applied there); Bun and Deno run TypeScript as it is.
 */
function threadEntry(): URL {
  const source = new URL("../sandbox-thread.ts", import.meta.url);
  if (!existsSync(fileURLToPath(source))) return new URL("../sandbox-thread.js", import.meta.url);
  if (process.versions.bun || process.versions.deno) return source;
  const tsx = import.meta.resolve("tsx/esm/api");
  const code = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source.href)}); });`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

/** Newline-delimited JSON: JSON.stringify never emits a raw newline, so lines frame messages. */
function jsonLines(listeners: readonly ((message: unknown) => void)[]): LineSplitter {
  return new LineSplitter((line) => {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return; // not protocol output; the pipe carries nothing else we could act on
    }
    for (const listener of listeners) listener(message);
  });
}

/** Wrap a child process speaking the worker protocol as JSON lines on stdin/stdout (Node, Deno). */
export function childWorker(command: string, args: readonly string[]): WorkerProcess {
  // The worker runs untrusted code: it gets no environment (no secrets, no NODE_OPTIONS).
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], env: {} });
  const tail = new Tail();
  const messageListeners: ((message: unknown) => void)[] = [];
  const splitter = jsonLines(messageListeners);
  child.stdout.on("data", (chunk: Buffer) => splitter.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => tail.push(chunk));
  child.stdin.on("error", () => undefined); // EPIPE after the worker died: the exit listener reports it
  const exitListeners: ((exit: { code: number | null; signal: string | null }) => void)[] = [];
  let exited: { code: number | null; signal: string | null } | undefined;
  // The worker runs guests on its main thread, whose id is the process's.
  const cpuTimeMs = threadCpuClock(child.pid, child.pid);
  child.on("exit", (code, signal) => {
    cpuTimeMs?.close();
    exited = { code, signal };
    for (const listener of exitListeners) listener(exited);
  });
  child.on("error", (error) => {
    tail.push(`spawn error: ${error.message}\n`);
    if (!exited) {
      exited = { code: null, signal: null };
      for (const listener of exitListeners) listener(exited);
    }
  });
  return {
    pid: child.pid,
    send: (message) => {
      child.stdin.write(`${JSON.stringify(message)}\n`);
    },
    onMessage: (listener) => messageListeners.push(listener),
    onExit: (listener) => (exited ? listener(exited) : exitListeners.push(listener)),
    stderrTail: () => tail.toString(),
    kill: () => {
      child.kill("SIGKILL");
    },
    cpuTimeMs,
  };
}

/** Inside a worker: the parent's pipe, once the worker is bound to die with its parent. */
export function stdioWorkerIO(dieWithParent: () => void = () => watchParentFromThread()): WorkerIO {
  dieWithParent();
  // Only protocol lines may reach stdout: anything else printed in the worker goes to stderr.
  console.log = console.error;
  console.info = console.error;
  const listeners: ((message: unknown) => void)[] = [];
  const splitter = jsonLines(listeners);
  process.stdin.on("data", (chunk: Buffer) => splitter.push(chunk));
  return {
    onMessage: (listener) => listeners.push(listener),
    onClose: (listener) =>
      process.stdin.on("end", () => {
        listener();
        process.exit(0);
      }),
    send: (message) => {
      process.stdout.write(`${JSON.stringify(message)}\n`);
    },
  };
}

export function procRss(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match?.[1] ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export const nodeSandboxHost: SandboxHost = {
  loadQuickJsWasm: async () => new Uint8Array(await readFile(require.resolve("@jitl/quickjs-wasmfile-release-sync/wasm"))),
  spawnWorker: () => {
    const { command, args } = workerCommand();
    return childWorker(command, args);
  },
  workerIO: () => stdioWorkerIO(),
  // node:worker_threads is required only here: every process would pay for it at startup.
  spawnThreadWorker: () => nodeThreadWorker(require("node:worker_threads"), threadEntry(), (tid) => threadCpuClock(process.pid, tid)),
  threadWorkerIO: () => nodeThreadIO(require("node:worker_threads")),
  rssBytes: procRss,
};

export const nodeFileHost: FileHost = {
  readText: (path) => readFile(path, "utf8"),
  exists: (path) =>
    access(path).then(
      () => true,
      () => false,
    ),
  listDir: async (path) => {
    const entries = await readdir(path, { withFileTypes: true });
    return Promise.all(
      entries.map(async (entry) => {
        let kind: "file" | "dir" | "other" = entry.isFile() ? "file" : entry.isDirectory() ? "dir" : "other";
        if (entry.isSymbolicLink()) {
          const target = await stat(`${path}/${entry.name}`).catch(() => undefined);
          kind = target?.isFile() ? "file" : target?.isDirectory() ? "dir" : "other";
        }
        return { name: entry.name, kind };
      }),
    );
  },
  realpath: (path) => realpath(path),
  stamp: (path) =>
    stat(path, { bigint: true }).then(
      (s) => stampOf(s),
      () => "missing",
    ),
  readLink: (path) => readlink(path),
  symlink: (target, path) => symlink(target, path),
  watch: (dirs, onChange, debounceMs = 100) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const fire = (): void => {
      clearTimeout(timer);
      timer = setTimeout(onChange, debounceMs);
    };
    const watchers: FSWatcher[] = [];
    for (const dir of dirs) {
      try {
        watchers.push(watchFs(dir, { recursive: true, persistent: false }, fire));
      } catch {
        // A directory that does not exist (yet) is simply not watched.
      }
    }
    return {
      close: () => {
        clearTimeout(timer);
        for (const watcher of watchers) watcher.close();
      },
    };
  },
  mkdirp: async (path, mode, enforceMode = false) => {
    await mkdir(path, { recursive: true, mode });
    if (enforceMode) await chmod(path, mode);
  },
  mode: async (path) => {
    const info = await stat(path).catch(() => undefined);
    return info ? info.mode & 0o7777 : undefined;
  },
  writeTextAtomic: async (path, text, mode) => {
    const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, text, { mode });
    await rename(temporary, path);
  },
  writeBytesAtomic: async (path, data, mode) => {
    const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, data, { mode });
    await rename(temporary, path);
  },
  copyFileAtomic: async (from, to, mode) => {
    const temporary = `${to}.${process.pid}.${Date.now()}.tmp`;
    try {
      await copyFile(from, temporary);
      await chmod(temporary, mode);
      await rename(temporary, to);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  },
  readBytes: async (path) => new Uint8Array(await readFile(path)),
  openAppend: async (path, mode) => {
    // Synchronous writes: an append of a few hundred bytes into the page cache takes
    // microseconds, while an async write waits its turn in the thread pool. Once write(2)
    // returns, the bytes survive a crash of this process.
    const fd = openSync(path, "a", mode);
    return {
      append: async (text) => {
        const bytes = Buffer.from(text, "utf8");
        let offset = 0;
        // A short write is finished, so a record is never left half-written by us.
        while (offset < bytes.byteLength) offset += writeSync(fd, bytes, offset);
      },
      sync: async () => fsyncSync(fd),
      close: async () => closeSync(fd),
    };
  },
  rename: (from, to) => rename(from, to),
  remove: (path) => rm(path, { force: true }),
  size: async (path) => (await stat(path).catch(() => undefined))?.size,
  readTail: async (path, bytes) => {
    const handle = await open(path, "r");
    try {
      const { size } = await handle.stat();
      const length = Math.min(bytes, size);
      const buffer = new Uint8Array(length);
      await handle.read(buffer, 0, length, size - length);
      return buffer;
    } finally {
      await handle.close();
    }
  },
  readRange: async (path, offset, maxBytes) => {
    const handle = await open(path, "r").catch(() => undefined);
    if (!handle) return undefined;
    try {
      const info = await handle.stat({ bigint: true });
      const size = Number(info.size);
      const length = Math.max(0, Math.min(maxBytes, size - offset));
      const buffer = Buffer.alloc(length);
      const { bytesRead } = length > 0 ? await handle.read(buffer, 0, length, offset) : { bytesRead: 0 };
      return { id: `${info.dev}:${info.ino}`, size, bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead) };
    } finally {
      await handle.close();
    }
  },
  truncate: (path, size) => truncate(path, size),
  chmod: (path, mode) => chmod(path, mode),
  makeTempDir: (prefix) => mkdtemp(`${tmpdir()}/${prefix}`),
  removeTree: (path) => rm(path, { recursive: true, force: true }),
  removeEmptyDir: (path) =>
    rmdir(path).then(
      () => true,
      () => false,
    ),
  kind: async (path) => {
    const info = await lstat(path).catch(() => undefined);
    return info ? kindOf(info) : "missing";
  },
  owner: async (path) => {
    const info = await lstat(path);
    return { kind: kindOf(info), uid: info.uid };
  },
  lock: {
    create: (path, token) => {
      try {
        symlinkSync(token, path);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
        throw error;
      }
    },
    holder: (path) => {
      try {
        return readlinkSync(path);
      } catch (error) {
        // EINVAL: a file that is not a symbolic link, which no Hookbox lock is.
        return (error as NodeJS.ErrnoException).code === "ENOENT" ? undefined : "";
      }
    },
    remove: (path) => {
      try {
        unlinkSync(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    },
    processExists: (pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch (error) {
        // EPERM: it exists, as another user's process.
        return (error as NodeJS.ErrnoException).code === "EPERM";
      }
    },
    stamp: (path) => {
      const info = statSync(path, { bigint: true, throwIfNoEntry: false });
      return info ? { token: stampOf(info), size: Number(info.size) } : undefined;
    },
    // Required on first use: most processes never hash.
    sha256: (bytes) => (require("node:crypto") as NodeCrypto).createHash("sha256").update(bytes).digest("hex"),
  },
  probe: {
    stamp: (path) => {
      try {
        const info = statSync(path, { bigint: true, throwIfNoEntry: false });
        return info ? stampOf(info) : "missing";
      } catch {
        return "missing"; // as FileHost.stamp: what cannot be looked at is not there
      }
    },
    kind: (path) => {
      try {
        const info = lstatSync(path, { throwIfNoEntry: false });
        return info ? kindOf(info) : "missing";
      } catch {
        return "missing";
      }
    },
    readLink: (path) => {
      try {
        return readlinkSync(path);
      } catch {
        return undefined;
      }
    },
    realpath: (path) => {
      try {
        return realpathSync.native(path);
      } catch {
        return undefined;
      }
    },
  },
};

type NodeCrypto = typeof NodeCryptoModule;

function stampOf(s: BigIntStats): string {
  return `${s.mtimeNs}:${s.ctimeNs}:${s.size}:${s.ino}`;
}

function kindOf(info: Stats): "file" | "dir" | "socket" | "symlink" | "other" {
  return info.isFile() ? "file" : info.isDirectory() ? "dir" : info.isSocket() ? "socket" : info.isSymbolicLink() ? "symlink" : "other";
}

const nodeStdout = stdoutQueue(
  (text) =>
    new Promise((resolve, reject) => {
      process.stdout.write(text, (error) => (error ? reject(error) : resolve()));
    }),
  (code) => process.exit(code),
);

/** The RuntimeHost on Node, and the base the Bun and Deno adapters override. */
export function createNodeHost(overrides: Partial<RuntimeHost> = {}): RuntimeHost {
  return {
    name: "node",
    args: process.argv.slice(2),
    env: process.env,
    pid: process.pid,
    uid: () => process.geteuid?.(),
    cwd: () => process.cwd(),
    homeDir: () => homedir(),
    hostname: () => hostname(),
    // node runs Hookbox from sources: process.execPath is node itself.
    binaryPath: () => undefined,
    cpuCount: () => availableParallelism(),
    exit: nodeStdout.exit,
    writeStdout: nodeStdout.write,
    writeStderr: (text) => {
      process.stderr.write(text);
    },
    readStdin: (maxBytes) => readStream(process.stdin, maxBytes),
    stdinIsTTY: () => Boolean(process.stdin.isTTY),
    terminalColumns: () => (process.stderr.isTTY ? process.stderr.columns : process.stdout.isTTY ? process.stdout.columns : undefined),
    executablePath: () => undefined,
    onSignal: (signal, listener) => {
      process.on(signal, listener);
      return () => process.off(signal, listener);
    },
    sandbox: nodeSandboxHost,
    fs: nodeFileHost,
    capabilityIO: lazyAsyncMethods<CapabilityIO>(() => import("./node-capability-io.ts").then((m) => m.nodeCapabilityIO)),
    packageIO: lazyAsyncMethods<PackageIO>(() => import("./node-package-io.ts").then((m) => m.nodePackageIO)),
    net: lazyAsyncMethods<NetHost>(() => import("./node-net.ts").then((m) => m.nodeNetHost)),
    notify: createNotifyIO(process.env, process.platform),
    digest: lazyAsyncMethods<DigestHost>(() => import("./node-digest.ts").then((m) => m.nodeDigestHost)),
    readStdinLine: (maxChars) => readLine(process.stdin, maxChars),
    sockets: lazyAsyncMethods<SocketHost>(() => import("./node-sockets.ts").then((m) => m.nodeSocketHost)),
    desktop: createDesktopHost(process.env, process.platform),
    ...overrides,
  };
}

/** Read stdin up to its first newline, then leave the rest unread (paused) for whoever reads next. */
function readLine(stream: NodeJS.ReadStream, maxChars: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    let text = "";
    const done = (line: string | undefined, error?: Error): void => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onError);
      stream.pause();
      if (error) reject(error);
      else resolve(line);
    };
    const onData = (chunk: Buffer | string): void => {
      text += chunk.toString();
      const newline = text.indexOf("\n");
      if (newline >= 0) done(text.slice(0, newline).replace(/\r$/, ""));
      else if (text.length > maxChars) done(undefined, new RangeError(`a line longer than ${maxChars} characters`));
    };
    const onEnd = (): void => done(text === "" ? undefined : text);
    const onError = (error: Error): void => done(undefined, error);
    stream.on("data", onData);
    stream.on("end", onEnd);
    stream.on("error", onError);
    stream.resume();
  });
}

async function readStream(stream: NodeJS.ReadableStream, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    total += buffer.byteLength;
    if (total > maxBytes) throw new RangeError(`stdin is larger than ${maxBytes} bytes`);
    chunks.push(buffer);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new TypeError("stdin is not valid UTF-8");
  }
}
