import type { WorkerProcess } from "../../sandbox/index.ts";

/**
 * A worker started before anyone listens to it (emit starts its first sandbox worker before the
 * pool exists): its lines — the "ready" first — are held until the first listener comes, then
 * handed over in order. Without this a worker that got ready early would be waited for until
 * the pool's start timeout.
 */
export function holdLines(worker: WorkerProcess): WorkerProcess {
  const held: string[] = [];
  const listeners: ((line: string) => void)[] = [];
  worker.onLine((line) => {
    if (listeners.length === 0) held.push(line);
    for (const listener of listeners) listener(line);
  });
  return {
    get pid() {
      return worker.pid;
    },
    send: (line) => worker.send(line),
    onLine: (listener) => {
      listeners.push(listener);
      for (const line of held.splice(0)) listener(line);
    },
    onExit: (listener) => worker.onExit(listener),
    stderrTail: () => worker.stderrTail(),
    kill: () => worker.kill(),
  };
}
