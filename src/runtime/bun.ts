import { dlopen, FFIType } from "bun:ffi";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import embeddedWasmPath from "@jitl/quickjs-wasmfile-release-sync/wasm" with { type: "file" };
import { bunRequest } from "./bun-http.ts";
import { readBunStdin, writeBunStdout } from "./bun-lean.ts";
import { childWorker, createNodeHost, nodeSandboxHost, stdioWorkerIO } from "./node.ts";
import { watchParentFromThread } from "./parent-death.ts";
import { webThreadIO, webThreadWorker } from "./thread-worker.ts";
import type { FetchHandler, ListenTarget, Listener, NetHost, RuntimeHost } from "./types.ts";

/** Bun.serve, and a raw HTTP/1.1 exchange over Bun.connect (both speak unix sockets natively): the binary's fast path. */
const bunNetHost: NetHost = {
  serve: async (handler: FetchHandler, target: ListenTarget): Promise<Listener> => {
    // Approvals can hold a request for minutes; the agent's own hook timeout bounds it (idleTimeout 0).
    // (Bun's types omit idleTimeout for unix sockets, but its 10 s default applies there too.)
    const server =
      "unix" in target
        ? Bun.serve({ unix: target.unix, fetch: handler, idleTimeout: 0 } as unknown as Parameters<typeof Bun.serve>[0])
        : Bun.serve({ hostname: target.hostname, port: target.port, fetch: handler, idleTimeout: 0 });
    return {
      address: "unix" in target ? `unix:${target.unix}` : `http://${target.hostname}:${server.port}`,
      close: async (graceMs) => {
        const stopped = server.stop(false);
        const forced = new Promise<void>((resolve) => setTimeout(() => void server.stop(true).then(resolve), graceMs));
        await Promise.race([stopped, forced]);
      },
    };
  },
  request: bunRequest,
};

const PR_SET_PDEATHSIG = 1;
const SIGKILL = 9;

/**
 * Linux: have the kernel SIGKILL this process when its parent dies (prctl PR_SET_PDEATHSIG),
 * the one stop that needs no cooperation from a worker stuck in WebAssembly. Costs ~1 ms and
 * ~2 MB (bun:ffi), against ~10 MB for a watchdog thread. False where it is not available.
 */
function setParentDeathSignal(): boolean {
  if (process.platform !== "linux") return false;
  for (const name of ["libc.so.6", "libc.so"]) {
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

/** True inside a `bun build --compile` binary, whose modules live under /$bunfs. */
export function isCompiledBinary(): boolean {
  return import.meta.url.includes("$bunfs") || (process.argv[1] ?? "").startsWith("/$bunfs");
}

/**
 * Bun: the binary. The wasm is embedded as a file asset (bun build --compile) and the sandbox
 * workers are this same binary started in worker mode, so nothing outside the binary is needed.
 */
export function createBunHost(): RuntimeHost {
  const compiled = isCompiledBinary();
  return createNodeHost({
    name: "bun",
    args: process.argv.slice(2),
    net: bunNetHost,
    readStdin: readBunStdin,
    writeStdout: writeBunStdout,
    sandbox: {
      ...nodeSandboxHost,
      workerIO: () => stdioWorkerIO(() => setParentDeathSignal() || watchParentFromThread()),
      loadQuickJsWasm: async () => new Uint8Array(await readFile(embeddedWasmPath)),
      // In the binary, chunks and entry points all live in /$bunfs/root/.
      spawnThreadWorker: () => webThreadWorker(compiled ? new URL("./sandbox-thread.ts", import.meta.url) : new URL("../sandbox-thread.ts", import.meta.url)),
      threadWorkerIO: webThreadIO,
      spawnWorker: () =>
        compiled
          ? childWorker(process.execPath, ["__sandbox-worker"])
          : childWorker(process.execPath, [fileURLToPath(new URL("../worker.ts", import.meta.url))]),
    },
  });
}
