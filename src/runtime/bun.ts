import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import embeddedWasmPath from "@jitl/quickjs-wasmfile-release-sync/wasm" with { type: "file" };
import { childWorker, createNodeHost, nodeSandboxHost } from "./node.ts";
import type { RuntimeHost } from "./types.ts";

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
    sandbox: {
      ...nodeSandboxHost,
      loadQuickJsWasm: async () => new Uint8Array(await readFile(embeddedWasmPath)),
      spawnWorker: () =>
        compiled
          ? childWorker(process.execPath, ["__sandbox-worker"])
          : childWorker(process.execPath, [fileURLToPath(new URL("../worker.ts", import.meta.url))]),
    },
  });
}
