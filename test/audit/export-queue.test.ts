import { describe, expect, it } from "vitest";
import { ExportQueue, PartialDelivery, type ExportTarget } from "../../src/decide/audit/export/queue.ts";
import type { AuditEntry } from "../../src/decide/audit/record.ts";
import { runRecord } from "./fixtures.ts";

const records = (n: number, from = 0): AuditEntry[] => Array.from({ length: n }, (_, i) => runRecord({ id: `r-${from + i}` }));
const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

/** A target that fails while `down`, delivering `partial` records of a failing batch first. */
function fakeTarget(): ExportTarget & { down: boolean; partial: number; got: string[] } {
  const target = {
    name: "fake",
    down: false,
    partial: 0,
    got: [] as string[],
    send: async (entries: readonly AuditEntry[]) => {
      if (target.down) {
        const n = target.partial;
        target.got.push(...entries.slice(0, n).map((e) => e.id));
        throw new PartialDelivery(n, new Error("receiver down"));
      }
      target.got.push(...entries.map((e) => e.id));
    },
    close: async () => undefined,
  };
  return target;
}

const fast = { batchSize: 4, sendTimeoutMs: 1000, retry: { initialMs: 5, maxMs: 20 } };

describe("ExportQueue", () => {
  it("delivers in order, in batches", async () => {
    const target = fakeTarget();
    const queue = new ExportQueue(target, { ...fast, capacity: 100 });
    queue.push(records(10));
    await until(() => target.got.length === 10);
    expect(target.got).toEqual(records(10).map((r) => r.id));
    expect(queue.stats()).toMatchObject({ sent: 10, dropped: 0, queued: 0, failing: false });
  });

  it("while the target is down it retries, keeps at most its capacity, drops the oldest and counts them", async () => {
    const target = fakeTarget();
    target.down = true;
    const queue = new ExportQueue(target, { ...fast, capacity: 8 });
    queue.push(records(5));
    await until(() => queue.stats().failing);
    queue.push(records(7, 5));
    expect(queue.stats()).toMatchObject({ queued: 8, dropped: 4, failing: true, lastError: "receiver down" });
    target.down = false;
    await until(() => queue.stats().queued === 0);
    expect(target.got).toEqual(records(8, 4).map((r) => r.id));
    expect(queue.stats()).toMatchObject({ sent: 8, dropped: 4, failing: false });
  });

  it("records delivered before a failure are not sent again", async () => {
    const target = fakeTarget();
    target.down = true;
    target.partial = 2;
    const queue = new ExportQueue(target, { ...fast, capacity: 100 });
    queue.push(records(3));
    await until(() => queue.stats().failing);
    target.down = false;
    await until(() => queue.stats().queued === 0);
    expect(target.got).toEqual(["r-0", "r-1", "r-2"]);
  });

  it("a target that never answers counts as failed after the send timeout, and push never waits", async () => {
    const hung: ExportTarget = { name: "hung", send: () => new Promise(() => undefined), close: async () => undefined };
    const queue = new ExportQueue(hung, { ...fast, sendTimeoutMs: 20, capacity: 10 });
    for (let i = 0; i < 50; i++) queue.push(records(1, i));
    expect(queue.stats()).toMatchObject({ queued: 10, dropped: 40 });
    await until(() => queue.stats().failing);
    expect(queue.stats().lastError).toMatch(/did not take the records within 20 ms/);
    await queue.close(0);
  });
});
