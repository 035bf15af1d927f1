import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nodeFileHost } from "../../src/platform/node.ts";

/**
 * FileHost.probe answers at once what FileHost's asynchronous stamp, kind, readLink and realpath
 * answer (issue 34: the per-event checks use it). A truth table over what can be at a path.
 */
describe("PathProbe agrees with FileHost", () => {
  const dir = mkdtempSync(join(tmpdir(), "hookbox-probe-"));
  mkdirSync(join(dir, "d"));
  writeFileSync(join(dir, "f"), "x");
  symlinkSync("f", join(dir, "link"));
  symlinkSync("nowhere", join(dir, "dangling"));
  symlinkSync("loop-b", join(dir, "loop-a"));
  symlinkSync("loop-a", join(dir, "loop-b"));
  symlinkSync("d", join(dir, "dir-link"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const paths = ["d", "f", "link", "dangling", "loop-a", "dir-link", "missing", "f/under-a-file", "dir-link/x", "d/.."].map((p) => join(dir, p));

  it.each(paths)("%s", async (path) => {
    const { probe } = nodeFileHost;
    expect(probe.stamp(path)).toBe(await nodeFileHost.stamp(path));
    expect(probe.kind(path)).toBe(await nodeFileHost.kind(path));
    expect(probe.readLink(path)).toBe(await nodeFileHost.readLink(path).catch(() => undefined));
    expect(probe.realpath(path)).toBe(await nodeFileHost.realpath(path).catch(() => undefined));
  });

  it("a stamp changes when the file is rewritten in place with another size, and when it is replaced", () => {
    const file = join(dir, "g");
    writeFileSync(file, "one");
    const before = nodeFileHost.probe.stamp(file);
    writeFileSync(file, "three");
    const rewritten = nodeFileHost.probe.stamp(file);
    expect(rewritten).not.toBe(before);
    writeFileSync(`${file}.tmp`, "three");
    rmSync(file);
    symlinkSync(`${file}.tmp`, file);
    expect(nodeFileHost.probe.stamp(file)).not.toBe(rewritten);
  });
});
