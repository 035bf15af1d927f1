import { mkdirSync, mkdtempSync, realpathSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { nodeCapabilityIO } from "../../src/platform/node-capability-io.ts";
import { watchEvent } from "../../src/serve/triggers/events.ts";
import { PathBudget, Watcher, type WatchBatch, type WatchTarget } from "../../src/serve/triggers/watcher.ts";
import { FakeClock } from "./fake-clock.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "hookbox-watch-")));
  dirs.push(dir);
  return dir;
}

const DEBOUNCE = 5000;

function watcher(
  targets: WatchTarget[],
  options: Partial<{ recursive: boolean; extensions: string[]; on: ("created" | "modified" | "deleted")[]; budget: number }> = {},
) {
  const clock = new FakeClock(1_000_000);
  const batches: WatchBatch[][] = [];
  const logs: string[] = [];
  const w = new Watcher({
    targets,
    recursive: options.recursive ?? false,
    extensions: options.extensions,
    on: options.on ?? ["created", "modified", "deleted"],
    debounceMs: DEBOUNCE,
    pollMs: 10_000,
    io: nodeCapabilityIO,
    clock,
    budget: new PathBudget(options.budget ?? 20_000),
    onBatch: (b) => batches.push([...b]),
    log: (line) => logs.push(line),
  });
  return { w, clock, batches, logs };
}

/** A change of mtime and size the poll cannot miss, whatever the file system's time resolution. */
function touch(path: string, text: string, mtimeSeconds: number): void {
  writeFileSync(path, text);
  utimesSync(path, mtimeSeconds, mtimeSeconds);
}

describe("a watched file", () => {
  it("a change is reported once, after the debounce, as file.changed with the engine's fields", async () => {
    const root = project();
    const file = join(root, "README.md");
    touch(file, "one", 1000);
    const { w, clock, batches } = watcher([{ path: file, relative: "README.md", kind: "file" }]);
    await w.start();
    touch(file, "two!", 2000);
    await w.scan();
    await clock.advance(DEBOUNCE - 1);
    expect(batches).toHaveLength(0);
    // Looked at again meanwhile, nothing new: still one change.
    await w.scan();
    await clock.advance(DEBOUNCE);
    expect(batches).toHaveLength(1);
    const event = watchEvent(batches[0]?.[0] as WatchBatch, root, "w", root, clock.now());
    expect(event).toMatchObject({
      event_type: "file.changed",
      path: file,
      relative_path: "README.md",
      operation: "modified",
      old_mtime: 1000,
      new_mtime: 2000,
      size: 4,
    });
    await clock.advance(DEBOUNCE * 3);
    expect(batches).toHaveLength(1);
    w.stop();
  });

  it("created then deleted within the window reports nothing", async () => {
    const root = project();
    const file = join(root, "tmp.txt");
    const { w, clock, batches } = watcher([{ path: file, relative: "tmp.txt", kind: "file" }]);
    await w.start();
    touch(file, "x", 1000);
    await w.scan();
    unlinkSync(file);
    await w.scan();
    await clock.advance(DEBOUNCE * 2);
    expect(batches).toHaveLength(0);
    w.stop();
  });
});

describe("a watched folder", () => {
  it("200 files written over several looks (a git checkout) are one folder.changed with 200 changes", async () => {
    const root = project();
    const src = join(root, "src");
    mkdirSync(src);
    for (let i = 0; i < 200; i++) touch(join(src, `f${i}.ts`), "old", 1000);
    const { w, clock, batches } = watcher([{ path: src, relative: "src", kind: "folder" }]);
    await w.start();
    for (let chunk = 0; chunk < 4; chunk++) {
      for (let i = chunk * 50; i < (chunk + 1) * 50; i++) touch(join(src, `f${i}.ts`), "new content", 2000);
      await w.scan();
      // Less than the debounce between looks: the window restarts.
      await clock.advance(DEBOUNCE / 2);
    }
    expect(batches).toHaveLength(0);
    await clock.advance(DEBOUNCE);
    expect(batches).toHaveLength(1);
    const event = watchEvent(batches[0]?.[0] as WatchBatch, root, "w", root, clock.now());
    expect(event).toMatchObject({ event_type: "folder.changed", relative_path: "src", count: 200 });
    expect((event.changes as unknown[]).length).toBe(200);
    expect(event.changes).toContainEqual({ path: "src/f7.ts", operation: "modified" });
    w.stop();
  });

  it("a folder that never goes quiet is still reported, within a bounded number of windows", async () => {
    const root = project();
    const { w, clock, batches } = watcher([{ path: root, relative: ".", kind: "folder" }]);
    await w.start();
    for (let i = 0; i < 10; i++) {
      touch(join(root, `busy${i}.log`), "x", 1000 + i);
      await w.scan();
      await clock.advance(DEBOUNCE - 1);
    }
    expect(batches.length).toBeGreaterThanOrEqual(1);
    w.stop();
  });

  it("only the extensions asked for, no subfolders unless recursive, never .git, symlinks not followed", async () => {
    const root = project();
    mkdirSync(join(root, "sub"));
    mkdirSync(join(root, ".git"));
    const { w, clock, batches } = watcher([{ path: root, relative: ".", kind: "folder" }], { extensions: [".md"] });
    await w.start();
    touch(join(root, "a.md"), "x", 1000);
    touch(join(root, "a.ts"), "x", 1000);
    touch(join(root, "sub", "b.md"), "x", 1000);
    touch(join(root, ".git", "HEAD.md"), "x", 1000);
    await w.scan();
    await clock.advance(DEBOUNCE);
    expect(batches.flat().flatMap((b) => b.changes.map((c) => c.path))).toEqual([join(root, "a.md")]);

    const deep = watcher([{ path: root, relative: ".", kind: "folder" }], { extensions: [".md"], recursive: true });
    await deep.w.start();
    touch(join(root, "sub", "b.md"), "changed", 2000);
    touch(join(root, ".git", "HEAD.md"), "changed", 2000);
    await deep.w.scan();
    await deep.clock.advance(DEBOUNCE);
    expect(deep.batches.flat().flatMap((b) => b.changes.map((c) => c.path))).toEqual([join(root, "sub", "b.md")]);
    w.stop();
    deep.w.stop();
  });

  it("on: [created] reports creations only; deletions and edits are dropped", async () => {
    const root = project();
    touch(join(root, "old.md"), "x", 1000);
    const { w, clock, batches } = watcher([{ path: root, relative: ".", kind: "folder" }], { on: ["created"] });
    await w.start();
    unlinkSync(join(root, "old.md"));
    touch(join(root, "new.md"), "x", 1000);
    await w.scan();
    await clock.advance(DEBOUNCE);
    expect(batches.flat().flatMap((b) => b.changes.map((c) => [c.path, c.operation]))).toEqual([[join(root, "new.md"), "created"]]);
    w.stop();
  });

  it("tracks no more paths than the budget, and says so once", async () => {
    const root = project();
    for (let i = 0; i < 10; i++) touch(join(root, `f${i}`), "x", 1000);
    const { w, logs } = watcher([{ path: root, relative: ".", kind: "folder" }], { budget: 4 });
    await w.start();
    await w.scan();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/tracks 4 of 10 files: triggers.max_watched_paths \(4\)/);
    w.stop();
  });
});
