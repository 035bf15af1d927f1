import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, appendFileSync, readlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GENESIS, linkTo as linkWith } from "../../src/decide/audit/chain.ts";
import { AppendLock } from "../../src/platform/lock.ts";
import { readRuns } from "../../src/decide/audit/read.ts";
import type { AuditEntry } from "../../src/decide/audit/record.ts";
import { AuditSink, type AuditSinkOptions } from "../../src/decide/audit/sink.ts";
import { verifyAuditLog } from "../../src/decide/audit/verify.ts";
import { nodeFileHost } from "../../src/platform/node.ts";

const linkTo = (line: string): string => linkWith(nodeFileHost.lock.sha256, line);

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookbox-audit-"));
  path = join(dir, "audit", "hookbox-audit.jsonl");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const decision = (id: string, reason = `reason of ${id}`): AuditEntry =>
  ({
    v: 1,
    kind: "decision",
    id,
    event_id: `e-${id}`,
    event_type: "PreToolUse",
    session_id: "s",
    decision: "allow",
    reason,
    hook_set: { registry_version: 1, hooks: 0, broken: [], operator: "ok" },
    served_by: { via: "daemon", pid: 1, build: "b" },
    runs: 0,
    duration_ms: 0,
    started_at: "2026-11-01T00:00:00.000Z",
    completed_at: "2026-11-01T00:00:00.000Z",
  }) as AuditEntry;

const open = (options: Partial<AuditSinkOptions> = {}): Promise<AuditSink> =>
  AuditSink.open({ fs: nodeFileHost, path, pid: process.pid, maxFileBytes: 1024 * 1024, keepFiles: 3, repairTail: true, ...options });

const verify = () => verifyAuditLog({ fs: nodeFileHost, path, pid: process.pid });
const lines = (file = path): string[] => readFileSync(file, "utf8").split("\n").filter(Boolean);

describe("the audit sink's chain", () => {
  it("chains records across batches, writers and rotation", async () => {
    const daemon = await open({ maxFileBytes: 2000 });
    await Promise.all([daemon.write([decision("a"), decision("b")]), daemon.write([decision("c")])]);
    // A one-shot writer (emit) between two of the daemon's batches.
    const emit = await open({ repairTail: false, maxFileBytes: Number.POSITIVE_INFINITY, keepFiles: 0 });
    await emit.write([decision("emit-1")]);
    await emit.close();
    for (let i = 0; i < 6; i++) await daemon.write([decision(`d${i}`, "x".repeat(200))]);
    await daemon.close();
    expect(daemon.stats().rotations).toBeGreaterThan(0);
    const rotated = lines(`${path}.1`);
    expect(JSON.parse(lines()[0] as string).prev).toBe(linkTo(rotated.at(-1) as string));
    const report = await verify();
    expect(report).toMatchObject({ ok: true, problems: [], origin: "genesis", records: 10, chained: 10, checkedLinks: 9 });
    expect(report.files.map((f) => f.name)).toEqual(
      ["hookbox-audit.jsonl.2", "hookbox-audit.jsonl.1", "hookbox-audit.jsonl"].slice(-report.files.length),
    );
    expect(report.head?.hash).toBe(daemon.stats().chain.head);
  });

  it("cuts a torn last line under the lock, even as a one-shot writer, and links past it", async () => {
    const first = await open();
    await first.write([decision("a")]);
    await first.close();
    appendFileSync(path, '{"v":1,"kind":"decision","id":"torn');
    expect((await verify()).problems).toMatchObject([{ kind: "torn_tail", line: 2 }]);
    const emit = await open({ repairTail: false });
    await emit.write([decision("b")]);
    await emit.close();
    expect(emit.stats().repairedTornLines).toBe(1);
    expect(lines().map((l) => JSON.parse(l).id)).toEqual(["a", "b"]);
    expect((await verify()).ok).toBe(true);
  });

  it("checks the tail at open: a broken one is recorded once, and the chain goes on", async () => {
    const first = await open();
    await first.write([decision("a"), decision("b"), decision("c")]);
    await first.close();
    writeFileSync(path, readFileSync(path, "utf8").replace("reason of b", "reason of someone else"));
    const second = await open();
    const chain = second.stats().chain;
    expect(chain.tail).toBe("broken");
    expect(chain.broken).toMatchObject({ line: 3 });
    expect(chain.broken?.problem).toMatch(/line 2 was changed after it was written/);
    await second.write([decision("d")]);
    await second.close();
    const marker = JSON.parse(lines()[3] as string);
    expect(marker).toMatchObject({ v: 1, kind: "chain", id: chain.broken?.restartedWith, found: { problem: "broken_link", line: 3 } });
    // verify still reports the edit (it is in the log), and where the writer went on.
    const report = await verify();
    expect(report.ok).toBe(false);
    expect(report.problems).toMatchObject([{ kind: "broken_link", line: 3, previous: { line: 2 } }]);
    expect(report.restarts).toEqual([{ file: "hookbox-audit.jsonl", line: 4 }]);
    // Readers of runs pass over the marker: it is neither a run nor a line they cannot read.
    expect(await readRuns(nodeFileHost, path, { limit: 10 })).toEqual({ records: [], skippedLines: 0 });
    // The next start checks back to the marker only (its own link and the one after it): the break is on record already.
    const third = await open();
    expect(third.stats().chain).toMatchObject({ tail: "intact", checkedLinks: 2 });
    await third.close();
  });

  it("links a log written before the chain from its last record on", async () => {
    mkdirp(join(dir, "audit"));
    const legacy = `${JSON.stringify({ v: 1, id: "old", hook_id: "h", started_at: "2026-01-01T00:00:00.000Z" })}\n`;
    writeFileSync(path, legacy);
    const sink = await open();
    expect(sink.stats().chain.tail).toBe("intact");
    await sink.write([decision("new")]);
    await sink.close();
    expect(JSON.parse(lines()[1] as string).prev).toBe(linkTo(legacy.trimEnd()));
    expect(await verify()).toMatchObject({ ok: true, origin: "unchained", unchained: { count: 1, lastAt: "2026-01-01T00:00:00.000Z" } });
  });
});

describe("the append lock", () => {
  const lockPath = () => `${path}.lock`;

  it("breaks a lock left by a process that no longer exists", async () => {
    mkdirp(join(dir, "audit"));
    // pid 2^22 + 1 is above Linux's pid_max: no such process.
    symlinkSync(`4194305:${Date.now() - 1000}:gone`, lockPath());
    const sink = await open({ repairTail: false });
    await sink.write([decision("a")]);
    await sink.close();
    expect(lines()).toHaveLength(1);
    expect(existsSync(lockPath())).toBe(false);
  });

  it("waits for a live holder, and takes the lock once it is released", async () => {
    mkdirp(join(dir, "audit"));
    const held = await new AppendLock({ io: nodeFileHost.lock, path: lockPath(), pid: process.pid }).acquire();
    const sink = await open({ repairTail: false });
    let written = false;
    const writing = sink.write([decision("a")]).then(() => (written = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(written).toBe(false);
    held.release();
    await writing;
    await sink.close();
    expect(lines()).toHaveLength(1);
  });

  it("takes a live holder's lock only when it is older than staleMs; the holder notices before it appends", async () => {
    mkdirp(join(dir, "audit"));
    const slow = new AppendLock({ io: nodeFileHost.lock, path: lockPath(), pid: process.pid, staleMs: 50 });
    const held = await slow.acquire();
    const other = await new AppendLock({ io: nodeFileHost.lock, path: lockPath(), pid: process.pid, staleMs: 50 }).acquire();
    expect(held.stillHeld()).toBe(false);
    expect(other.stillHeld()).toBe(true);
    // Releasing a lock that was taken from us leaves the new holder's alone.
    held.release();
    expect(readlinkSync(lockPath())).toMatch(new RegExp(`^${process.pid}:`));
    other.release();
    expect(existsSync(lockPath())).toBe(false);
  });

  it("removes a plain file in the lock's place: no Hookbox lock is one", async () => {
    mkdirp(join(dir, "audit"));
    writeFileSync(lockPath(), "");
    const sink = await open({ repairTail: false, lock: { timeoutMs: 1000 } });
    await sink.write([decision("a")]);
    await sink.close();
    expect(lines()).toHaveLength(1);
    expect(existsSync(lockPath())).toBe(false);
  });

  it("fails a write, loudly and counted, when a live holder never lets go", async () => {
    mkdirp(join(dir, "audit"));
    const held = await new AppendLock({ io: nodeFileHost.lock, path: lockPath(), pid: process.pid }).acquire();
    const sink = await open({ repairTail: false, lock: { staleMs: 60_000, timeoutMs: 100 } });
    await expect(sink.write([decision("a")])).rejects.toThrow(/hookbox-audit\.jsonl\.lock has been held by process \d+ for longer than 100 ms/);
    expect(sink.stats()).toMatchObject({ dropped: 1, failing: true });
    held.release();
  });
});

describe("verify", () => {
  it("reports an empty log where there is no audit directory at all", async () => {
    expect(await verify()).toMatchObject({ ok: true, files: [], records: 0, origin: "empty", head: undefined });
  });
});

describe("a new log", () => {
  it("starts at the genesis value", async () => {
    const sink = await open();
    await sink.write([decision("a")]);
    await sink.close();
    expect(JSON.parse(lines()[0] as string).prev).toBe(GENESIS);
  });
});

function mkdirp(directory: string): void {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
}
