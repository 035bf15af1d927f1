import type { WorkerProcess } from "../worker/protocol.ts";

/**
 * A worker started before anyone listens to it (`serve` and `emit` start their first sandbox
 * worker before the pool exists, so its start overlaps their own): its messages — "ready"
 * first — are held until the first listener comes, then handed over in order. Without this a
 * worker that got ready early would be waited for until the pool's start timeout.
 */
export function holdMessages(worker: WorkerProcess): WorkerProcess {
  const held: unknown[] = [];
  const listeners: ((message: unknown) => void)[] = [];
  worker.onMessage((message) => {
    if (listeners.length === 0) held.push(message);
    for (const listener of listeners) listener(message);
  });
  return {
    get pid() {
      return worker.pid;
    },
    send: (message) => worker.send(message),
    onMessage: (listener) => {
      listeners.push(listener);
      for (const message of held.splice(0)) listener(message);
    },
    onExit: (listener) => worker.onExit(listener),
    stderrTail: () => worker.stderrTail(),
    kill: () => worker.kill(),
    cpuTimeMs: () => worker.cpuTimeMs?.(),
  };
}
