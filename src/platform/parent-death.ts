/**
 * A sandbox worker must die with its daemon (finding F10): after `kill -9` of the daemon, a
 * worker whose guest is stuck in a native built-in would otherwise go on running untrusted
 * code at 100% CPU. An idle worker sees its stdin close and exits, but a busy one never gets
 * back to its event loop — so this check runs on a thread of its own, which SIGKILLs the
 * whole process once its parent is gone (it was re-parented to init or a subreaper).
 *
 * The portable way (Node, Deno, Bun off Linux), at ~10 MB per worker; on Linux, Bun uses the
 * kernel's PR_SET_PDEATHSIG instead (see bun.ts).
 */
export function watchParentFromThread(intervalMs = 250): void {
  const source = `
    const { workerData } = require("node:worker_threads");
    setInterval(() => {
      if (process.ppid !== workerData.ppid) process.kill(process.pid, "SIGKILL");
    }, workerData.intervalMs);
  `;
  const ppid = process.ppid;
  // Imported here, not at the top: every process that loads the runtime adapters (emit's fast
  // path included) would otherwise pay for node:worker_threads at startup.
  void import("node:worker_threads").then(({ Worker }) => {
    // execArgv []: the thread needs none of the process's loaders (tsx under Node).
    const watchdog = new Worker(source, { eval: true, workerData: { ppid, intervalMs }, execArgv: [], stdout: true, stderr: true });
    watchdog.unref();
  });
}
