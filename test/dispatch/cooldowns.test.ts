import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cooldownKey, cooldownsFilePath, FileCooldowns, MemoryCooldowns } from "../../src/decide/chain/cooldowns.ts";
import { nodeFileHost } from "../../src/platform/node.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function store(dataDir: string, pid = process.pid): FileCooldowns {
  return new FileCooldowns({ fs: nodeFileHost, path: cooldownsFilePath(dataDir), pid });
}

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "hookbox-cooldowns-"));
  dirs.push(dir);
  return dir;
}

const KEY = cooldownKey("/work/project", "slow");
const MINUTE = 60_000;

describe("cooldowns shared through the data directory (the daemon, emit, a restart)", () => {
  it("a run claimed by one process is refused to another inside the cooldown, and allowed after it", async () => {
    const dir = dataDir();
    const daemon = store(dir);
    const emit = store(dir, 424242);
    expect((await daemon.claim([{ key: KEY, cooldownMs: MINUTE }], 1_000_000)).refused.size).toBe(0);
    const refused = (await emit.claim([{ key: KEY, cooldownMs: MINUTE }], 1_000_000 + 10_000)).refused.get(KEY);
    expect(refused).toEqual({ remainingMs: 50_000, lastRunAt: 1_000_000 });
    expect((await emit.claim([{ key: KEY, cooldownMs: MINUTE }], 1_000_000 + MINUTE)).refused.size).toBe(0);
    // The daemon sees emit's run: its own memory said 1_000_000.
    expect(await daemon.lastRun(KEY)).toBe(1_000_000 + MINUTE);
  });

  it("survives a restart: a new store of the same directory knows the last run", async () => {
    const dir = dataDir();
    await store(dir).claim([{ key: KEY, cooldownMs: MINUTE }], 5_000_000);
    const restarted = store(dir);
    expect(await restarted.lastRun(KEY)).toBe(5_000_000);
    expect((await restarted.claim([{ key: KEY, cooldownMs: MINUTE }], 5_000_000 + 1000)).refused.has(KEY)).toBe(true);
  });

  it("a manual fire (bypass) runs inside the cooldown and still records the run", async () => {
    const dir = dataDir();
    const cooldowns = store(dir);
    await cooldowns.claim([{ key: KEY, cooldownMs: MINUTE }], 1000);
    expect((await cooldowns.claim([{ key: KEY, cooldownMs: MINUTE }], 2000, { bypass: true })).refused.size).toBe(0);
    expect(await store(dir).lastRun(KEY)).toBe(2000);
  });

  it("is per project: the same hook id in another project has its own cooldown", async () => {
    const cooldowns = store(dataDir());
    await cooldowns.claim([{ key: cooldownKey("/a", "lint"), cooldownMs: MINUTE }], 1000);
    expect((await cooldowns.claim([{ key: cooldownKey("/b", "lint"), cooldownMs: MINUTE }], 1001)).refused.size).toBe(0);
    expect((await cooldowns.claim([{ key: cooldownKey(undefined, "lint"), cooldownMs: MINUTE }], 1002)).refused.size).toBe(0);
  });

  it("a file that is not ours counts as empty; an unusable directory falls back on memory and says so", async () => {
    const dir = dataDir();
    const path = cooldownsFilePath(dir);
    await store(dir).claim([{ key: KEY, cooldownMs: MINUTE }], 1000);
    writeFileSync(path, "{not json");
    expect((await store(dir).claim([{ key: KEY, cooldownMs: MINUTE }], 2000)).refused.size).toBe(0);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ v: 1, last_run: { [KEY]: 2000 } });

    const blocked = dataDir();
    writeFileSync(join(blocked, "state"), "a file where the directory should be");
    const fallback = store(blocked);
    const first = await fallback.claim([{ key: KEY, cooldownMs: MINUTE }], 1000);
    expect(first.problem).toMatch(/cannot be used .*cooldowns hold within this process only/);
    expect((await fallback.claim([{ key: KEY, cooldownMs: MINUTE }], 2000)).refused.has(KEY)).toBe(true);
  });

  it("concurrent claims of one hook from several processes: exactly one wins", async () => {
    const dir = dataDir();
    const stores = Array.from({ length: 8 }, (_, i) => store(dir, process.pid + i));
    const results = await Promise.all(stores.map((s) => s.claim([{ key: KEY, cooldownMs: MINUTE }], 1000)));
    expect(results.filter((r) => r.refused.size === 0)).toHaveLength(1);
  });

  it("memory cooldowns (hookbox test) follow the same rules", async () => {
    const memory = new MemoryCooldowns();
    expect((await memory.claim([{ key: KEY, cooldownMs: 10 }], 100)).refused.size).toBe(0);
    expect((await memory.claim([{ key: KEY, cooldownMs: 10 }], 105)).refused.get(KEY)).toEqual({ remainingMs: 5, lastRunAt: 100 });
  });
});
