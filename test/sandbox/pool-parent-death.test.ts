import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const SANDBOX = fileURLToPath(new URL("../../sandbox/index.ts", import.meta.url));
const RUNTIME = fileURLToPath(new URL("../../src/platform/node.ts", import.meta.url));

/** Alive and not a zombie (an orphan's zombie waits for a reaper that may never come). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

// The binary (Bun, Linux) arms PR_SET_PDEATHSIG: test/security/findings.test.ts "F10". Here the
// portable path: a Node worker's watchdog thread, which must fire while the main thread is stuck.
describe("a worker whose parent is killed (finding F10, Node watchdog thread)", () => {
  it("dies even while its guest is stuck in a native built-in", async (ctx) => {
    if (process.platform !== "linux") ctx.skip(`reads /proc/<pid>/stat to see the worker die: Linux only (this is ${process.platform})`);
    const script = `
      import { SandboxPool, compileHandler, createHandlerSpec, DEFAULT_LIMITS } from ${JSON.stringify(SANDBOX)};
      import { nodeSandboxHost } from ${JSON.stringify(RUNTIME)};
      const pool = new SandboxPool({ spawn: () => nodeSandboxHost.spawnWorker(), size: 1 });
      await pool.ready();
      const compiled = await compileHandler("export default () => Array.prototype.indexOf.call({ length: 2 ** 32 - 1 }, 1)", "/hooks/wedge/handler.ts");
      if (!compiled.ok) throw new Error(compiled.failure.message);
      void pool.invoke(await createHandlerSpec({ id: "wedge", handler: compiled.handler }), {}, { ...DEFAULT_LIMITS, timeoutMs: 60_000 }, async () => undefined);
      console.log(String(pool.stats().workers[0].pid));
    `;
    const parent = spawn(process.execPath, ["--import", require.resolve("tsx"), "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const worker = await new Promise<number>((resolve, reject) => {
      parent.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      parent.once("exit", (code) => reject(new Error(`parent exited (${code}) before reporting its worker`)));
    });
    try {
      expect(isRunning(worker)).toBe(true);
      await new Promise((r) => setTimeout(r, 300)); // the guest is now inside indexOf
      parent.kill("SIGKILL");
      for (let i = 0; i < 60 && isRunning(worker); i++) await new Promise((r) => setTimeout(r, 50));
      expect(isRunning(worker), `worker ${worker} still running after its parent was killed`).toBe(false);
    } finally {
      if (isRunning(worker)) process.kill(worker, "SIGKILL");
    }
  });
});
