import { PLATFORM } from "./platform.ts";
import { dlopen, FFIType } from "bun:ffi";
import { existsSync, realpathSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { WorkerIO, WorkerProcess } from "../../sandbox/index.ts";
import { bunRequest } from "./bun-http.ts";
import { isCompiledBinary } from "./bun-compiled.ts";
import { bunDaemonHost } from "./bun-daemon.ts";
import { bunPeersUnverifiable, bunRequestWithPeer } from "./bun-peer.ts";
import { serveUnixHttp } from "./bun-unix-server.ts";
import { threadCpuClock } from "./cpu-time.ts";
import { bunStdout, readBunStdin } from "./bun-lean.ts";
import { bunThreadSandbox } from "./bun-thread.ts";
import { Tail } from "./lines.ts";
import { createNodeHost, nodeSandboxHost } from "./node.ts";
import { watchParentFromThread } from "./parent-death.ts";
import { webThreadWorker } from "./thread-worker.ts";
import type { FetchHandler, ListenTarget, Listener, NetHost, RuntimeHost, WorkerSpawnOptions } from "./types.ts";

/**
 * The unix socket on Bun.listen with HTTP/1.1 spoken by Hookbox (bun-unix-server.ts: the peer's
 * uid is known), loopback TCP on Bun.serve (its callers prove themselves with a bearer token),
 * and a raw HTTP/1.1 exchange over Bun.connect for requests.
 */
const bunNetHost: NetHost = {
  serve: async (handler: FetchHandler, target: ListenTarget): Promise<Listener> => {
    if ("unix" in target) return serveUnixHttp(handler, target.unix);
    // Approvals can hold a request for minutes; the agent's own hook timeout bounds it (idleTimeout 0).
    const server = Bun.serve({ hostname: target.hostname, port: target.port, fetch: (request) => handler(request), idleTimeout: 0 });
    return {
      address: `http://${target.hostname}:${server.port}`,
      peerCredentials: false,
      close: async (graceMs) => {
        const stopped = server.stop(false);
        const forced = new Promise<void>((resolve) => setTimeout(() => void server.stop(true).then(resolve), graceMs));
        await Promise.race([stopped, forced]);
      },
    };
  },
  request: bunRequest,
  requestWithPeer: bunRequestWithPeer,
  peersUnverifiable: async () => bunPeersUnverifiable(),
};

const PR_SET_PDEATHSIG = 1;
const SIGKILL = 9;

/**
 * Linux: have the kernel SIGKILL this process when its parent dies (prctl PR_SET_PDEATHSIG),
 * the one stop that needs no cooperation from a worker stuck in WebAssembly. Costs ~1 ms and
 * ~2 MB (bun:ffi), against ~10 MB for a watchdog thread. False where it is not available.
 */
function setParentDeathSignal(): boolean {
  if (PLATFORM.parentDeath !== "prctl") return false;
  for (const name of [PLATFORM.libc, "libc.so"]) {
    if (name === undefined) continue;
    try {
      const libc = dlopen(name, { prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 } });
      // The daemon may have died before the signal was armed: then stdin is closed already and
      // the idle worker exits on it, before it could run any guest code.
      if (libc.symbols.prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) === 0) return true;
    } catch {
      // no such library here (musl names it differently), or no FFI: try the next, then give up
    }
  }
  return false;
}

/**
 * A sandbox worker on Bun's IPC channel (a socketpair carrying JSON, framed and parsed natively):
 * measured against JSON lines on node:child_process pipes, a round trip of a chain-sized message
 * costs ~33 µs instead of ~70 µs p50 and about a third of the CPU on each side. The worker is
 * this same Bun binary; stdout is not used, stderr is kept for diagnostics.
 */
function bunChildWorker(command: readonly string[], options: WorkerSpawnOptions = {}): WorkerProcess {
  const tail = new Tail();
  const messageListeners: ((message: unknown) => void)[] = [];
  const exitListeners: ((exit: { code: number | null; signal: string | null }) => void)[] = [];
  let exited: { code: number | null; signal: string | null } | undefined;
  // The worker runs untrusted code: it gets no environment (no secrets, no BUN_OPTIONS), only
  // JavaScriptCore's switch for the optimizing WebAssembly tier when it is short-lived.
  const child = Bun.spawn([...command], {
    env: options.oneShot ? { BUN_JSC_useOMGJIT: "0" } : {},
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
    serialization: "json",
    ipc: (message) => {
      for (const listener of messageListeners) listener(message);
    },
  });
  void (async () => {
    for await (const chunk of child.stderr) tail.push(chunk);
  })().catch(() => undefined);
  // The worker runs guests on its main thread, whose id is the process's.
  const cpuTimeMs = threadCpuClock(child.pid, child.pid);
  void child.exited.then(() => {
    cpuTimeMs?.close();
    const exit = { code: child.signalCode ? null : child.exitCode, signal: child.signalCode === null ? null : String(child.signalCode) };
    exited = exit;
    for (const listener of exitListeners) listener(exit);
  });
  return {
    pid: child.pid,
    send: (message) => {
      try {
        child.send(message);
      } catch {
        // The channel is gone with the worker: the exit listener reports it.
      }
    },
    onMessage: (listener) => messageListeners.push(listener),
    onExit: (listener) => (exited ? listener(exited) : exitListeners.push(listener)),
    stderrTail: () => tail.toString(),
    kill: () => child.kill("SIGKILL"),
    cpuTimeMs,
  };
}

/** Inside a worker started by bunChildWorker: the parent's IPC channel, once bound to die with the parent. */
function bunWorkerIO(): WorkerIO {
  if (!setParentDeathSignal()) watchParentFromThread();
  // Nothing may reach the parent but protocol messages; stray console output goes to stderr.
  console.log = console.error;
  console.info = console.error;
  const send = process.send?.bind(process);
  if (!send) throw new Error("the sandbox worker was started without an IPC channel to its parent");
  return {
    onMessage: (listener) => process.on("message", listener),
    onClose: (listener) =>
      process.on("disconnect", () => {
        listener();
        process.exit(0);
      }),
    send: (message) => void send(message),
  };
}

/** The binary starts with the JIT's thresholds scaled up (build.ts); a daemon or worker still running after this long is serving. */
const STARTUP_MS = 1000;

/** Normal tier-up once startup is over, for the code that runs per event; a short-lived command never waits for it. */
function restoreJitPolicyAfterStartup(): void {
  const unsafe = Bun.unsafe as { setJITPolicy?: (scale: number) => void };
  if (typeof unsafe.setJITPolicy !== "function") return;
  setTimeout(() => unsafe.setJITPolicy?.(1), STARTUP_MS).unref();
}

/**
 * The binary as it was invoked: process.argv0 (a path, or a name found on PATH) when it is this
 * very binary, else process.execPath. execPath has symlinks resolved, and a path written into
 * an agent's settings through ~/.local/bin/hookbox -> /opt/hookbox-0.1/hookbox must survive the
 * upgrade that removes /opt/hookbox-0.1.
 */
function invokedBinaryPath(): string {
  const invoked = process.argv0;
  const names =
    PLATFORM.executableSuffix !== "" && !invoked.toLowerCase().endsWith(PLATFORM.executableSuffix)
      ? [invoked, `${invoked}${PLATFORM.executableSuffix}`]
      : [invoked];
  const candidates = /[\\/]/.test(invoked)
    ? [resolve(invoked)]
    : (process.env.PATH ?? "")
        .split(delimiter)
        .filter(Boolean)
        .flatMap((dir) => names.map((name) => resolve(join(dir, name))));
  try {
    const self = realpathSync(process.execPath);
    return candidates.find((candidate) => existsSync(candidate) && realpathSync(candidate) === self) ?? process.execPath;
  } catch {
    return process.execPath;
  }
}

/**
 * Bun: the binary. The wasm is embedded as a file asset (bun build --compile) and the sandbox
 * workers are this same binary started in worker mode, so nothing outside the binary is needed.
 */
export function createBunHost(): RuntimeHost {
  const compiled = isCompiledBinary();
  restoreJitPolicyAfterStartup();
  return createNodeHost({
    name: "bun",
    args: process.argv.slice(2),
    // Under `bun run` the executable is bun, not Hookbox.
    binaryPath: () => (compiled ? invokedBinaryPath() : undefined),
    net: bunNetHost,
    // Bun's node:net and node:dgram for the rest; /dev/log (a unix datagram socket) through bun:ffi.
    sockets: {
      open: async (target, timeoutMs) =>
        target.kind === "unix-dgram"
          ? (await import("./bun-dgram.ts")).bunUnixDatagram(target.path)
          : (await import("./node-sockets.ts")).nodeSocketHost.open(target, timeoutMs),
    },
    readStdin: readBunStdin,
    writeStdout: bunStdout.write,
    exit: bunStdout.exit,
    executablePath: () => (compiled ? process.execPath : undefined),
    ...(compiled ? { daemon: bunDaemonHost(process.execPath) } : {}),
    sandbox: {
      ...nodeSandboxHost,
      workerIO: bunWorkerIO,
      // The embedded wasm read and the thread's port exactly as a sandbox thread gets them.
      ...bunThreadSandbox,
      spawnWorker: (options) =>
        bunChildWorker([process.execPath, compiled ? "__sandbox-worker" : fileURLToPath(new URL("../worker.ts", import.meta.url))], options),
      // In the binary, chunks and entry points all live in /$bunfs/root/.
      spawnThreadWorker: () =>
        webThreadWorker(compiled ? new URL("./sandbox-thread.ts", import.meta.url) : new URL("../sandbox-thread.ts", import.meta.url), (tid) =>
          threadCpuClock(process.pid, tid),
        ),
    },
  });
}
