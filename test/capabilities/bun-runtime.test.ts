import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { liveProcesses, markedSeconds } from "./processes.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/** The binary runs on Bun: the same capability primitives, proven there (not only under Node). */
describe("capabilities under Bun (the binary's runtime)", () => {
  it("process-group kill, timeouts, abort, no-follow reads, FIFOs, sparse files and pinned HTTP", () => {
    const marks = [markedSeconds(40), markedSeconds(41), markedSeconds(41), markedSeconds(42)];
    const stdout = execFileSync(resolve(ROOT, "node_modules/.bin/bun"), [resolve(import.meta.dirname, "fixtures/bun-capabilities.ts"), ...marks], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 30_000,
    });
    const seen = JSON.parse(stdout.trim().split("\n").pop() as string);
    expect(seen.runtime).toBe("bun");
    expect(seen.sleep.result).toMatchObject({ exitCode: -1, timedOut: true });
    expect(seen.sleep.elapsedMs).toBeLessThan(500);
    expect(seen.group.result).toMatchObject({ exitCode: -1, timedOut: true });
    expect(seen.group.elapsedMs).toBeLessThan(500);
    expect(seen.abort).toMatchObject({ error: "HookboxError", message: expect.stringMatching(/the invocation ended/) });
    expect(seen.read).toEqual({ value: "hello" });
    expect(seen.link).toMatchObject({ error: "PermissionDenied", message: expect.stringMatching(/resolving to "\/etc\/hosts"/) });
    expect(seen.fifo).toMatchObject({ error: "PermissionDenied", message: expect.stringMatching(/FIFO/) });
    expect(seen.fifo.elapsedMs).toBeLessThan(500);
    expect(seen.sparse.length).toBe(1024 * 1024);
    expect(seen.sparse.elapsedMs).toBeLessThan(1000);
    expect(seen.http).toMatchObject({ value: { status: 200, body: "pong" } });
    expect(seen.numericHttp).toMatchObject({ value: { status: 200, body: "pong" } });
    expect(seen.env).toMatchObject({ value: { exitCode: 0 } });
    for (const mark of marks) expect(liveProcesses(mark)).toEqual([]);
  });
});
