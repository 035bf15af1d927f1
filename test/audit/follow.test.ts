import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AuditFollower } from "../../src/decide/audit/follow.ts";
import type { AuditEntry } from "../../src/decide/audit/record.ts";
import { createNodeHost } from "../../src/platform/node.ts";
import { decisionRecord, runRecord } from "./fixtures.ts";

const fs = createNodeHost().fs;
const line = (entry: AuditEntry) => `${JSON.stringify(entry)}\n`;
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function startFollowing(path: string, from: "end" | "start"): Promise<{ follower: AuditFollower; seen: string[] }> {
  const seen: string[] = [];
  // A long interval: the test drives each look with poll().
  const follower = await AuditFollower.start(fs, path, (entries) => seen.push(...entries.map((e) => e.id)), { intervalMs: 60_000, from });
  return { follower, seen };
}

describe("AuditFollower", () => {
  it("from the end: only what is appended after it started, each complete line once, junk lines skipped", async () => {
    dir = mkdtempSync(join(tmpdir(), "hookbox-follow-"));
    const path = join(dir, "audit.jsonl");
    writeFileSync(path, line(runRecord({ id: "old" })));
    const { follower, seen } = await startFollowing(path, "end");
    appendFileSync(path, line(runRecord({ id: "a" })) + "not json\n" + line(decisionRecord({ id: "b" })));
    const half = line(runRecord({ id: "c" }));
    appendFileSync(path, half.slice(0, 20));
    await follower.poll();
    expect(seen).toEqual(["a", "b"]);
    appendFileSync(path, half.slice(20));
    await follower.poll();
    await follower.poll();
    expect(seen).toEqual(["a", "b", "c"]);
    follower.stop();
  });

  it("across a rotation: the rest of the old file (now .1), then the new file from its start", async () => {
    dir = mkdtempSync(join(tmpdir(), "hookbox-follow-"));
    const path = join(dir, "audit.jsonl");
    writeFileSync(path, "");
    const { follower, seen } = await startFollowing(path, "start");
    appendFileSync(path, line(runRecord({ id: "1" })));
    await follower.poll();
    appendFileSync(path, line(runRecord({ id: "2" })));
    renameSync(path, `${path}.1`);
    // The new live file already holds more than the old offset: a size check alone would miss the rotation.
    writeFileSync(path, line(runRecord({ id: "3", reason: "x".repeat(2000) })));
    await follower.poll();
    expect(seen).toEqual(["1", "2", "3"]);
    follower.stop();
  });

  it("a file that does not exist yet is followed from its first line", async () => {
    dir = mkdtempSync(join(tmpdir(), "hookbox-follow-"));
    const path = join(dir, "audit.jsonl");
    const { follower, seen } = await startFollowing(path, "end");
    await follower.poll();
    writeFileSync(path, line(runRecord({ id: "first" })));
    await follower.poll();
    expect(seen).toEqual(["first"]);
    follower.stop();
  });
});
