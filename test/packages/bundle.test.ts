import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { packBundle, parseBundleFileName, unpackBundle } from "../../src/hooks/packages/bundle.ts";
import { checkPath, readTar, writeTar } from "../../src/hooks/packages/tar.ts";
import { readTree, treeChanges, treeDigest } from "../../src/hooks/packages/tree.ts";
import { createNodeHost } from "../../src/platform/node.ts";
import { nodePackageIO } from "../../src/platform/node-package-io.ts";

const host = createNodeHost();
const scratch = mkdtempSync(join(tmpdir(), "hookbox-bundle-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const LIMITS = { maxEntries: 100, maxFileBytes: 1024, maxTotalBytes: 4096 };

function makePackage(dir: string, mtime: number): void {
  mkdirSync(join(dir, "fixtures"), { recursive: true });
  writeFileSync(join(dir, "hook.yaml"), "id: demo\nversion: 1.0.0\nevents: [PreToolUse]\nhandler: handler.ts\n");
  writeFileSync(join(dir, "handler.ts"), "export default () => undefined;\n");
  writeFileSync(join(dir, "fixtures", "event.json"), "{}\n");
  for (const file of ["hook.yaml", "handler.ts", "fixtures/event.json", "fixtures", "."]) utimesSync(join(dir, file), mtime, mtime);
}

/** A raw ustar header with a valid checksum, for hostile archives the writer would never make. */
function header(name: string, type: string, size = 0, options: { prefix?: string; magic?: string } = {}): Uint8Array {
  const h = new Uint8Array(512);
  h.set(text(name), 0);
  h.set(text("0000644\0"), 100);
  h.set(text(`${size.toString(8).padStart(11, "0")}\0`), 124);
  h.set(text(type), 156);
  h.set(text(options.magic ?? "ustar\0"), 257);
  h.set(text("00"), 263);
  if (options.prefix) h.set(text(options.prefix), 345);
  h.set(text("        "), 148);
  const sum = h.reduce((a, b) => a + b, 0);
  h.set(text(`${sum.toString(8).padStart(6, "0")}\0 `), 148);
  return h;
}

function archive(...parts: Uint8Array[]): Uint8Array {
  const all = [...parts, new Uint8Array(1024)];
  const out = new Uint8Array(all.reduce((n, p) => n + Math.ceil(p.length / 512) * 512, 0));
  let at = 0;
  for (const p of all) {
    out.set(p, at);
    at += Math.ceil(p.length / 512) * 512;
  }
  return out;
}

describe("bundles are reproducible", () => {
  it("packing the same tree twice, from copies with different mtimes, gives identical bytes", async () => {
    const a = join(scratch, "a");
    const b = join(scratch, "b");
    makePackage(a, 1_000_000);
    makePackage(b, 1_700_000_000);
    const first = await packBundle(await readTree(host.fs, a), nodePackageIO);
    const again = await packBundle(await readTree(host.fs, a), nodePackageIO);
    const other = await packBundle(await readTree(host.fs, b), nodePackageIO);
    expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true);
    expect(Buffer.from(other).equals(Buffer.from(first))).toBe(true);
    // The gzip header names no time and a fixed OS.
    expect([...first.subarray(4, 10)]).toEqual([0, 0, 0, 0, 2, 3]);
  });

  it("a bundle unpacks to the same files, and GNU tar reads it as a normal archive", async () => {
    const dir = join(scratch, "c");
    makePackage(dir, 5);
    const tree = await readTree(host.fs, dir);
    const bytes = await packBundle(tree, nodePackageIO);
    const unpacked = await unpackBundle(bytes, nodePackageIO);
    expect(unpacked.ok && [...unpacked.tree.keys()]).toEqual(["fixtures/event.json", "handler.ts", "hook.yaml"]);
    expect(unpacked.ok && (await treeDigest(unpacked.tree)).integrity).toBe((await treeDigest(tree)).integrity);
    const file = join(scratch, "c.tar.gz");
    writeFileSync(file, bytes);
    expect(execFileSync("tar", ["-tzvf", file], { encoding: "utf8" })).toMatch(/-rw-r--r-- 0\/0 +\d+ 1970-01-01 00:00 handler\.ts/);
  });

  it("long paths use the ustar prefix and read back whole", () => {
    const path = `${"d".repeat(90)}/${"e".repeat(60)}/${"f".repeat(90)}.ts`;
    const read = readTar(writeTar([{ path, data: text("x") }]), LIMITS);
    expect(read.ok && read.files[0]?.path).toBe(path);
  });

  it("the digest ignores everything but paths and contents, and says what changed", async () => {
    const one = await treeDigest(
      new Map([
        ["a", text("1")],
        ["b", text("2")],
      ]),
    );
    const two = await treeDigest(
      new Map([
        ["b", text("2")],
        ["a", text("1")],
      ]),
    );
    expect(two.integrity).toBe(one.integrity);
    const edited = await treeDigest(
      new Map([
        ["a", text("changed")],
        ["c", text("3")],
      ]),
    );
    expect(treeChanges(one.files, edited.files)).toBe("a changed, b removed, c added");
  });
});

describe("hostile bundles are refused, never repaired", () => {
  const refuse = (bytes: Uint8Array): string => {
    const read = readTar(bytes, LIMITS);
    return read.ok ? "accepted" : read.error;
  };
  it.each([
    ["../evil.ts", "`..` segment"],
    ["a/../../evil.ts", "`..` segment"],
    ["/etc/passwd", "absolute path"],
    ["a//b", "empty or `.` segment"],
    ["a\\b", "backslash"],
  ])("path %s", (name, message) => {
    expect(refuse(archive(header(name, "0")))).toContain(message);
  });
  it.each([
    ["2", "symbolic link"],
    ["1", "hard link"],
    ["3", "character device"],
    ["6", "FIFO"],
    ["x", "extended (pax) header"],
  ])("entry type %s", (type, message) => {
    expect(refuse(archive(header("x", type)))).toContain(message);
  });
  it("a traversal hidden in the ustar prefix", () => {
    expect(refuse(archive(header("evil.ts", "0", 0, { prefix: ".." })))).toContain("`..` segment");
  });
  it("a bad checksum, a duplicate, a file under a file, oversized entries, truncation", () => {
    const bad = header("a", "0");
    bad[0] = 0x62;
    expect(refuse(archive(bad))).toContain("checksum");
    expect(refuse(archive(header("a", "0"), header("a", "0")))).toContain("twice");
    expect(refuse(archive(header("a", "0"), header("a/b", "0")))).toContain("which is a file");
    expect(refuse(archive(header("big", "0", 2048), new Uint8Array(2048)))).toContain("more than the 1024");
    expect(refuse(header("cut", "0", 100))).toContain("ends inside it");
    expect(refuse(archive(header("x", "0", 0, { magic: "nope\0\0" })))).toContain("not a ustar header");
  });
  it("a gzip bomb is refused before it is inflated past the limit", async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const result = await unpackBundle(new Uint8Array(bomb), nodePackageIO);
    expect(result.ok ? "accepted" : result.error).toContain("too large once decompressed");
  });
  it("not gzip at all", async () => {
    const result = await unpackBundle(text("hello"), nodePackageIO);
    expect(result.ok ? "accepted" : result.error).toContain("not a gzip file");
  });
  it("a package directory with a symbolic link is refused when read", async () => {
    const dir = join(scratch, "linked");
    makePackage(dir, 5);
    symlinkSync("/etc/passwd", join(dir, "passwd"));
    await expect(readTree(host.fs, dir)).rejects.toThrow(/passwd is a symbolic link/);
  });
  it("paths: a leading ./ is dropped; the rest pass through unchanged", () => {
    expect(checkPath("./hook.yaml")).toBe("hook.yaml");
    expect(checkPath("a/b.ts")).toBe("a/b.ts");
  });
});

describe("bundle file names", () => {
  it.each([
    ["guard-secrets-1.2.0.tar.gz", { id: "guard-secrets", version: "1.2.0" }],
    ["a-0.1.0-rc.1.tar.gz", { id: "a", version: "0.1.0-rc.1" }],
    ["nope.tar.gz", undefined],
    ["x-1.0.tar", undefined],
  ])("%s", (name, expected) => {
    expect(parseBundleFileName(name)).toEqual(expected);
  });
  it("GNU tar's own output (./-prefixed, with directory entries) reads too", async () => {
    const dir = join(scratch, "gnu");
    makePackage(dir, 5);
    const file = join(scratch, "gnu.tar.gz");
    execFileSync("tar", ["-czf", file, "-C", dir, "."]);
    const unpacked = await unpackBundle(new Uint8Array(readFileSync(file)), nodePackageIO);
    expect(unpacked.ok && [...unpacked.tree.keys()]).toEqual(["fixtures/event.json", "handler.ts", "hook.yaml"]);
  });
});
