// The parent side of bench/raw-worker.ts on Bun's IPC channel, as src/platform/bun.ts talks to a
// sandbox worker: the raw cost of one process hop plus a warm quickjs-emscripten call.
import { resolve } from "node:path";

export interface RawWorker {
  readonly ready: Promise<void>;
  call(event: unknown): Promise<unknown>;
  kill(): void;
}

export function rawWorkerIpc(handlerJs: string): RawWorker {
  let next = 0;
  const waiting = new Map<number, (value: unknown) => void>();
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((r) => (onReady = r));
  const child = Bun.spawn([process.execPath, resolve(import.meta.dirname, "raw-worker.ts"), handlerJs], {
    env: {},
    stdin: "ignore",
    stdout: "ignore",
    stderr: "inherit",
    serialization: "json",
    ipc: (message: { id?: number; value?: unknown; ready?: boolean }) => {
      if (message.ready) return onReady();
      const done = waiting.get(message.id as number);
      waiting.delete(message.id as number);
      done?.(message.value);
    },
  });
  return {
    ready,
    call: (event) =>
      new Promise((resolveCall) => {
        const id = ++next;
        waiting.set(id, resolveCall);
        child.send({ id, event });
      }),
    kill: () => child.kill("SIGKILL"),
  };
}
