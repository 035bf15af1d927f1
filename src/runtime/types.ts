import type { WorkerIO, WorkerProcess } from "../../sandbox/index.ts";
import type { CapabilityIO } from "./capability-io.ts";

/**
 * Everything Hookbox needs from the JavaScript runtime it runs on. `src/runtime/*` are the only
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
  cwd(): string;
  homeDir(): string;
  cpuCount(): number;
  exit(code: number): never;
  writeStdout(text: string): Promise<void>;
  writeStderr(text: string): void;
  /** Read all of stdin as UTF-8, refusing more than `maxBytes`. */
  readStdin(maxBytes: number): Promise<string>;
  stdinIsTTY(): boolean;
  /** Subscribe to a termination signal; returns the unsubscribe function. */
  onSignal(signal: "SIGTERM" | "SIGINT" | "SIGHUP", listener: () => void): () => void;
  readonly sandbox: SandboxHost;
  readonly fs: FileHost;
  /** Primitives for the handlers' host APIs (src/capabilities). */
  readonly capabilityIO: CapabilityIO;
}

/** What the QuickJS sandbox needs: the embedded wasm, and worker processes to run it in. */
export interface SandboxHost {
  loadQuickJsWasm(): Promise<Uint8Array>;
  /** Start a sandbox worker process (this program, in worker mode) with an empty environment. */
  spawnWorker(): WorkerProcess;
  /** Inside a worker process: the pipe to the parent. */
  workerIO(): WorkerIO;
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
  /** Call `onChange` (debounced) when anything under these directories changes; missing ones are ignored. */
  watch(dirs: readonly string[], onChange: () => void, debounceMs?: number): { close(): void };
}
