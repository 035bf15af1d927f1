import { describe, expect, it } from "vitest";
import type { WorkerProcess } from "../../sandbox/index.ts";
import { holdLines } from "../../src/cli/held-worker.ts";

/** A worker whose lines are emitted by the test. */
function fakeWorker(): WorkerProcess & { emit(line: string): void } {
  const listeners: ((line: string) => void)[] = [];
  return {
    pid: 7,
    send: () => undefined,
    onLine: (listener) => listeners.push(listener),
    onExit: () => undefined,
    stderrTail: () => "",
    kill: () => undefined,
    emit: (line) => listeners.forEach((listener) => listener(line)),
  };
}

describe("holdLines: a worker started before its pool listens", () => {
  it("hands the lines it said before anyone listened to the first listener, in order, then the rest live", () => {
    const worker = fakeWorker();
    const held = holdLines(worker);
    worker.emit('{"t":"ready","v":1}');
    worker.emit('{"t":"stats","id":1}');
    const seen: string[] = [];
    held.onLine((line) => seen.push(line));
    worker.emit('{"t":"done","id":2}');
    expect(seen).toEqual(['{"t":"ready","v":1}', '{"t":"stats","id":1}', '{"t":"done","id":2}']);
    expect(held.pid).toBe(7);
  });
});
