import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  SandboxEngine,
  SandboxPool,
  compileHandler,
  createHandlerSpec,
  DEFAULT_LIMITS,
  type HandlerSpec,
  type HostCallFn,
  type SandboxLimits,
} from "../../sandbox/index.ts";
import { nodeSandboxHost } from "../../src/platform/node.ts";

const require = createRequire(import.meta.url);

export function releaseWasm(): Uint8Array {
  return new Uint8Array(readFileSync(require.resolve("@jitl/quickjs-wasmfile-release-sync/wasm")));
}

export function debugWasm(): Uint8Array {
  return new Uint8Array(readFileSync(require.resolve("@jitl/quickjs-wasmfile-debug-sync/wasm")));
}

let counter = 0;

/** Compile a handler source into a spec; throws on compile errors (tests of those use compileHandler). */
export async function handlerSpec(
  source: string,
  options: { id?: string; hostFunctions?: string[]; hookData?: Record<string, unknown>; isolation?: "warm" | "fresh" } = {},
): Promise<HandlerSpec> {
  const id = options.id ?? `test-hook-${++counter}`;
  const compiled = await compileHandler(source, `/hooks/${id}/handler.ts`);
  if (!compiled.ok) throw new Error(compiled.failure.message);
  return createHandlerSpec({ ...options, id, handler: compiled.handler });
}

export function limits(overrides: Partial<SandboxLimits> = {}): SandboxLimits {
  return { ...DEFAULT_LIMITS, ...overrides };
}

export const noHost: HostCallFn = () =>
  Promise.reject({ name: "PermissionDenied", message: "no capabilities in this test", code: "capability_denied" });

export function createEngine(): Promise<SandboxEngine> {
  return SandboxEngine.create({ wasmBytes: releaseWasm() });
}

/** A pool of real worker processes (node + tsx running src/worker.ts). */
export async function createPool(size = 1, extra: { maxQueue?: number; killGraceMs?: number; queueTimeoutMs?: number } = {}): Promise<SandboxPool> {
  const pool = new SandboxPool({ spawn: () => nodeSandboxHost.spawnWorker(), size, ...extra });
  await pool.ready();
  return pool;
}

/** Peak and current resident set of a process, from /proc (Linux). */
export function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string): number => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

export function workerPids(pool: SandboxPool): number[] {
  return pool
    .stats()
    .workers.filter((w) => w.state !== "dead" && w.pid !== undefined)
    .map((w) => w.pid as number);
}
