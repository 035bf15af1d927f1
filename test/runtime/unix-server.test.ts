import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The daemon's own HTTP/1.1 server on Bun (src/platform/http1-server.ts over Bun.listen), driven
 * with raw bytes: what curl, node:http, Bun's fetch and emit send, and what they must not.
 */
const ROOT = resolve(import.meta.dirname, "../..");
const BUN = resolve(ROOT, "node_modules/.bin/bun");

interface Response {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Send raw bytes on one connection; collect every response until the server closes it (or `count` arrived and `keepOpen`). */
function exchange(
  socketPath: string,
  writes: readonly (string | Buffer)[],
  options: { count?: number; gapMs?: number } = {},
): Promise<{ responses: Response[]; closed: boolean }> {
  return new Promise((done, fail) => {
    const socket: Socket = connect(socketPath);
    let buffer = Buffer.alloc(0);
    const responses: Response[] = [];
    let closed = false;
    const finish = (): void => {
      socket.destroy();
      done({ responses, closed });
    };
    const parse = (): void => {
      for (;;) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        const [line = "", ...fields] = buffer.subarray(0, end).toString("latin1").split("\r\n");
        const headers = Object.fromEntries(fields.map((f) => [f.slice(0, f.indexOf(":")).toLowerCase(), f.slice(f.indexOf(":") + 1).trim()]));
        const length = Number(headers["content-length"] ?? 0);
        if (buffer.length < end + 4 + length) return;
        responses.push({ status: Number(line.slice(9, 12)), headers, body: buffer.subarray(end + 4, end + 4 + length).toString("utf8") });
        buffer = buffer.subarray(end + 4 + length);
        if (options.count !== undefined && responses.filter((r) => r.status >= 200).length >= options.count) return finish();
      }
    };
    socket.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      parse();
    });
    socket.on("end", () => {
      closed = true;
      finish();
    });
    socket.on("error", fail);
    void (async () => {
      for (const write of writes) {
        socket.write(write);
        if (options.gapMs) await new Promise((r) => setTimeout(r, options.gapMs));
      }
    })();
  });
}

const post = (path: string, body: string, extra = ""): string =>
  `POST ${path} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
const json = (
  response: Response | undefined,
): { method: string; path: string; body: string; bytes: number; headers: Record<string, string>; peer: { uid?: number; pid?: number } | null } =>
  JSON.parse(response?.body ?? "{}");

describe("the daemon's unix-socket HTTP server (Bun.listen)", () => {
  let dir: string;
  let socketPath: string;
  let server: ChildProcess;
  let peerCredentials = "";

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "hookbox-unix-server-"));
    socketPath = join(dir, "s.sock");
    server = spawn(BUN, [resolve(import.meta.dirname, "fixtures/bun-unix-server.ts"), socketPath], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    peerCredentials = await new Promise<string>((done) =>
      server.stdout?.on("data", (chunk: Buffer) => /ready (\w+)/.test(chunk.toString()) && done(/ready (\w+)/.exec(chunk.toString())?.[1] as string)),
    );
  });
  afterAll(() => {
    server.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("tells the handler who connected: this process's uid and pid (SO_PEERCRED; getpeereid elsewhere)", async () => {
    if (process.platform !== "linux" && process.platform !== "darwin") return;
    expect(peerCredentials).toBe("true");
    const { responses } = await exchange(socketPath, [post("/who", "{}", "connection: close\r\n")]);
    const peer = json(responses[0]).peer;
    expect(peer?.uid).toBe(process.getuid?.());
    if (process.platform === "linux") expect(peer?.pid).toBe(process.pid);
  });

  it("a POST with content-length, then a second request on the same connection (keep-alive)", async () => {
    const { responses, closed } = await exchange(socketPath, [post("/a", '{"n":1}'), post("/b?x=1", "é€😀", "connection: close\r\n")], { gapMs: 20 });
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    expect(json(responses[0])).toMatchObject({ method: "POST", path: "/a", body: '{"n":1}' });
    expect(json(responses[1])).toMatchObject({ path: "/b?x=1", body: "é€😀", bytes: Buffer.byteLength("é€😀") });
    expect(responses[0]?.headers.connection).toBeUndefined();
    expect(responses[1]?.headers.connection).toBe("close");
    expect(closed).toBe(true);
  });

  it("two pipelined requests in one write are answered in order", async () => {
    const { responses } = await exchange(socketPath, [post("/slow?ms=100", "1") + post("/fast", "2", "connection: close\r\n")]);
    expect(responses.map((r) => json(r).body)).toEqual(["1", "2"]);
  });

  it("a chunked body, sent in pieces, arrives whole", async () => {
    const head = "POST /chunked HTTP/1.1\r\nhost: localhost\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n";
    const { responses } = await exchange(socketPath, [head, "5\r\nhello\r\n", "6;ext=1\r\n world\r\n", "0\r\n\r\n"], { gapMs: 15 });
    expect(json(responses[0]).body).toBe("hello world");
  });

  it("a body that arrives slowly is streamed to the handler; Expect: 100-continue is answered first", async () => {
    const body = "x".repeat(300_000);
    const { responses } = await exchange(
      socketPath,
      [
        `POST /big HTTP/1.1\r\nhost: localhost\r\ncontent-length: ${body.length}\r\nexpect: 100-continue\r\nconnection: close\r\n\r\n`,
        body.slice(0, 1000),
        body.slice(1000),
      ],
      { gapMs: 30 },
    );
    expect(responses[0]?.status).toBe(100);
    expect(json(responses[1]).bytes).toBe(body.length);
  });

  it("a handler answering before its body arrived: the rest is still read (the client sees the answer, not a reset), then the connection closes", async () => {
    const { responses, closed } = await exchange(
      socketPath,
      ["POST /early HTTP/1.1\r\nhost: localhost\r\ncontent-length: 2000000\r\n\r\n", ...Array.from({ length: 20 }, () => "x".repeat(100_000))],
      { gapMs: 5 },
    );
    expect(responses.map((r) => r.status)).toEqual([200]);
    expect(responses[0]?.headers.connection).toBe("close");
    expect(closed).toBe(true);
  });

  it("HTTP/1.0 without keep-alive closes after the answer; HEAD gets no body", async () => {
    expect((await exchange(socketPath, ["GET /old HTTP/1.0\r\n\r\n"])).closed).toBe(true);
    const { responses } = await exchange(socketPath, ["HEAD /h HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n"]);
    expect(responses[0]?.status).toBe(200);
    expect(responses[0]?.body).toBe("");
  });

  it.for([
    ["a request line that is not HTTP/1.1", "GARBAGE\r\n\r\n", 400],
    ["an absolute-form target", "GET http://example.com/ HTTP/1.1\r\n\r\n", 400],
    [
      "both transfer-encoding and content-length (request smuggling)",
      "POST / HTTP/1.1\r\ntransfer-encoding: chunked\r\ncontent-length: 5\r\n\r\n0\r\n\r\n",
      400,
    ],
    ["a transfer coding other than chunked", "POST / HTTP/1.1\r\ntransfer-encoding: gzip\r\n\r\n", 400],
    ["two different content-lengths", "POST / HTTP/1.1\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\nab", 400],
    ["a folded header line", "GET / HTTP/1.1\r\nx-a: 1\r\n  folded\r\n\r\n", 400],
    ["a bad chunk size", "POST / HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n", 400],
    ["a body announced past the cap", `POST / HTTP/1.1\r\ncontent-length: ${64 * 1024 * 1024 + 2}\r\n\r\n`, 413],
    ["a header past 64 KiB", `GET / HTTP/1.1\r\nx-big: ${"a".repeat(70 * 1024)}\r\n\r\n`, 431],
  ] as const)("refuses %s with %i and closes", async ([, bytes, status]) => {
    const { responses, closed } = await exchange(socketPath, [bytes]);
    expect(responses.map((r) => r.status)).toEqual([status]);
    expect(closed).toBe(true);
  });

  it("close: an idle keep-alive connection is closed at once, a request in flight finishes first", async () => {
    const idle = connect(socketPath);
    await new Promise((r) => idle.once("connect", r));
    const idleClosed = new Promise((r) => idle.once("close", r));
    const inFlight = exchange(socketPath, [post("/slow?ms=500", "last")]);
    await new Promise((r) => setTimeout(r, 100));
    const stdout: string[] = [];
    server.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk.toString()));
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await idleClosed;
    const { responses, closed } = await inFlight;
    expect(json(responses[0]).body).toBe("last");
    expect(responses[0]?.headers.connection).toBe("close");
    expect(closed).toBe(true);
    await exited;
    expect(stdout.join("")).toContain("closed");
  });
});
