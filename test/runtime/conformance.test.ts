import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const FIXTURE = resolve(import.meta.dirname, "fixtures/conformance.ts");

/**
 * One conformance suite for the platform wing: the RuntimeHost contract (src/platform/types.ts)
 * run through the host each runtime's detectRuntime() picks — Node's adapter, Bun's and Deno's —
 * and held to the same answers. A runtime adapter that overrides a method differently (a mode
 * not applied, a symlink followed, a socket answer mangled) fails here by name.
 */
describe("the runtime contract on Node, Bun and Deno", () => {
  const runtimes: Record<string, string[]> = {
    node: [process.execPath, "--import", "tsx", FIXTURE],
    bun: [resolve(ROOT, "node_modules/.bin/bun"), FIXTURE],
    deno: [resolve(ROOT, "node_modules/.bin/deno"), "run", "--allow-all", FIXTURE],
  };
  const answers = Object.fromEntries(
    Object.entries(runtimes).map(([name, [program, ...args]]) => {
      const out = execFileSync(program as string, args, {
        cwd: ROOT,
        encoding: "utf8",
        timeout: 90_000,
        env: { ...process.env, HOOKBOX_CONFORMANCE_MARK: "seen" },
      });
      return [name, JSON.parse(out.trim().split("\n").pop() as string) as Record<string, unknown>];
    }),
  );

  it.each(Object.keys(runtimes))("%s: the host is its own runtime's adapter", (name) => {
    expect(answers[name]?.runtime).toBe(name);
    expect(answers[name]?.cleaned).toBe(true);
  });

  it.each(Object.keys(runtimes))("%s: files written atomically with their modes, appended, linked, listed, ranged and changed", (name) => {
    expect(answers[name]?.files).toEqual({
      text: "héllo\nsecond\n",
      size: 14,
      missingSize: null,
      mode: 0o600,
      bytesMode: 0o644,
      dirMode: 0o700,
      exists: [true, false],
      kinds: ["file", "dir", "symlink", "missing"],
      ownerIsMe: true,
      link: true,
      realpath: true,
      listed: ["a.txt:file", "link:file", "sub:dir"],
      bytes: [0, 1, 2, 255],
      copy: "héllo\nsecond\n",
      tail: "second\n",
      range: { size: 14, bytes: "éll", hasId: true },
      stampStable: true,
    });
    expect(answers[name]?.["file changes"]).toEqual({
      truncated: 3,
      stampChanged: true,
      chmodded: 0o640,
      goneAfterRemove: "missing",
      nonEmptyDirKept: false,
      emptyDirRemoved: true,
    });
    expect(answers[name]?.["a missing file"]).toBe("ENOENT");
  });

  it.each(Object.keys(runtimes))("%s: the process, the lock file, digests, the embedded QuickJS wasm", (name) => {
    expect(answers[name]?.process).toEqual({ uidIsNumber: true, cwdAbsolute: true, homeAbsolute: true, cpus: true, envSeen: "seen" });
    expect(answers[name]?.lock).toEqual({ first: true, second: false, holder: "token-1", afterRemove: null, selfExists: true });
    expect(answers[name]?.digest).toEqual({
      sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
      sha256Bytes: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
      hmac: "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8",
      equal: [true, false],
      random: 32,
    });
    expect(answers[name]?.wasm).toEqual({ magic: [0, 97, 115, 109], large: true });
  });

  it.each(Object.keys(runtimes))("%s: its listener and its client speak HTTP on a unix socket; a socket nobody serves is refused", (name) => {
    expect(answers[name]?.["unix socket round trip"]).toEqual({
      address: true,
      status: 201,
      body: { method: "POST", path: "/v1/events/PreToolUse", body: '{"é":1}' },
    });
    expect(answers[name]?.["a socket nobody serves"]).toBe("rejected");
  });

  it("every runtime gives Node's answers, check for check", () => {
    for (const name of ["bun", "deno"]) expect({ ...answers[name], runtime: "node" }, name).toEqual(answers.node);
  });
});
