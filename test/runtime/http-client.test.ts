import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { encodeRequest, HttpResponseReader, MAX_BODY_BYTES } from "../../src/platform/http1.ts";
import { requestNode } from "../../src/platform/node-net.ts";
import { checkOutcomes, requestAll, runScenarios, type Outcome } from "./http-scenarios.ts";

const ROOT = resolve(import.meta.dirname, "../..");

describe("NetHost.request: one HTTP/1.1 exchange, every implementation on the same answers", () => {
  it("node:net (Node, Deno)", async () => {
    const outcomes = await runScenarios((requests) => requestAll(requests, requestNode));
    expect(checkOutcomes(outcomes)).toEqual([]);
  });

  it("a socket nobody listens on is an error, at once", async () => {
    await expect(requestNode({ unix: "/nonexistent/hookbox.sock" }, { method: "GET", path: "/", timeoutMs: 5000 })).rejects.toThrow(/ENOENT/);
  });

  it("Bun: Bun.connect, and the blocking system calls emit uses on Linux; stdin through read(2)", async () => {
    const stdin = Buffer.alloc(200_000, "hookbox-");
    let report = {} as {
      runtime: string;
      syscalls: false | Record<string, Outcome>;
      stdin?: unknown;
      bunConnect: Record<string, Outcome>;
      missing: Record<string, Outcome>;
    };
    await runScenarios(async (requests) => {
      const stdout = await new Promise<string>((done, fail) => {
        const child = execFile(
          resolve(ROOT, "node_modules/.bin/bun"),
          [
            resolve(import.meta.dirname, "fixtures/bun-http.ts"),
            String(stdin.byteLength),
            JSON.stringify(requests.map(({ name, target }) => ({ name, target }))),
          ],
          { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
          (error, out) => (error ? fail(error) : done(out)),
        );
        child.stdin?.end(stdin);
      });
      report = JSON.parse(stdout.trim().split("\n").pop() as string);
      return {};
    });
    expect(report.runtime).toBe("bun");
    expect(checkOutcomes(report.bunConnect)).toEqual([]);
    if (process.platform === "linux") {
      expect(report.stdin).toEqual({ bytes: stdin.byteLength, sum: stdin.reduce((sum, byte) => (sum + byte) % 1_000_003, 0) });
      expect(report.syscalls).toBeTruthy();
      expect(checkOutcomes(report.syscalls as Record<string, Outcome>)).toEqual([]);
    }
    expect(report.missing["missing"]).toMatchObject({ error: expect.stringMatching(/ENOENT/) });
  });
});

describe("the HTTP/1.1 codec", () => {
  const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

  it("refuses a request whose header or request line could smuggle another request", () => {
    expect(() => encodeRequest({ method: "GET", path: "/", headers: { "x-a": "1\r\nx-b: 2" }, timeoutMs: 1 }, "localhost")).toThrow(/line break/);
    expect(() => encodeRequest({ method: "GET", path: "/ HTTP/1.1\r\nx: y", timeoutMs: 1 }, "localhost")).toThrow(/white space/);
  });

  it("refuses an announced body over the cap before reading it", () => {
    const reader = new HttpResponseReader();
    expect(() => reader.push(bytes(`HTTP/1.1 200 OK\r\ncontent-length: ${MAX_BODY_BYTES + 1}\r\n\r\n`))).toThrow(/larger than/);
  });

  it("refuses an endless header", () => {
    const reader = new HttpResponseReader();
    expect(() => reader.push(bytes(`HTTP/1.1 200 OK\r\nx: ${"a".repeat(70 * 1024)}`))).toThrow(/header is larger/);
  });

  it("a HEAD answer has no body whatever its content-length says", () => {
    expect(new HttpResponseReader(false).push(bytes("HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n"))).toEqual({ status: 200, body: "" });
  });
});
