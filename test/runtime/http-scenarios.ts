// HTTP/1.1 answers a daemon could give (and a few it must not), as raw bytes on a unix socket:
// one table run against every NetHost.request implementation (node:net here, Bun.connect and the
// Linux system calls in fixtures/bun-http.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HttpReply, HttpRequestInit, ListenTarget } from "../../src/platform/types.ts";

export interface ReceivedRequest {
  readonly head: string;
  readonly body: Buffer;
}

export interface Scenario {
  readonly name: string;
  readonly request: HttpRequestInit;
  /** Answer the request (the socket is the server side). */
  readonly respond: (socket: Socket, request: ReceivedRequest) => void | Promise<void>;
  readonly expect: { readonly status: number; readonly body: string } | { readonly error: RegExp };
}

export type Outcome = { readonly status: number; readonly body: string } | { readonly error: string };

const later = (ms = 5): Promise<void> => new Promise((r) => setTimeout(r, ms));
const ok = (body: string, extra = ""): string => `HTTP/1.1 200 OK\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
const POST = (body: string, path = "/v1/events/PreToolUse"): HttpRequestInit => ({ method: "POST", path, body, timeoutMs: 5000 });
const GET: HttpRequestInit = { method: "GET", path: "/healthz", timeoutMs: 5000 };
const BIG = "x".repeat(3 * 1024 * 1024 + 17);
const UNICODE = JSON.stringify({ path: "/tmp/é€😀", n: 1 });

/** What the server saw, as the body of its answer. */
function echo(socket: Socket, request: ReceivedRequest): void {
  const [line = "", ...headers] = request.head.split("\r\n");
  const fields = Object.fromEntries(headers.map((h) => [h.slice(0, h.indexOf(":")).toLowerCase(), h.slice(h.indexOf(":") + 1).trim()]));
  socket.end(ok(JSON.stringify({ line, fields, body: request.body.toString("utf8"), bytes: request.body.byteLength })));
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name: "a POST with a non-ASCII body: content-length counts bytes, the body arrives whole",
    request: POST(UNICODE),
    respond: echo,
    expect: {
      status: 200,
      body: JSON.stringify({
        line: "POST /v1/events/PreToolUse HTTP/1.1",
        fields: { host: "localhost", connection: "close", "content-type": "application/json", "content-length": String(Buffer.byteLength(UNICODE)) },
        body: UNICODE,
        bytes: Buffer.byteLength(UNICODE),
      }),
    },
  },
  {
    name: "a GET has no body and no content-length",
    request: GET,
    respond: echo,
    expect: {
      status: 200,
      body: JSON.stringify({ line: "GET /healthz HTTP/1.1", fields: { host: "localhost", connection: "close" }, body: "", bytes: 0 }),
    },
  },
  {
    name: "an answer written a few bytes at a time, split inside a UTF-8 character",
    request: GET,
    respond: async (socket) => {
      const bytes = Buffer.from(ok(`{"é":"€😀"}`, "x-extra: 1\r\n"));
      for (let i = 0; i < bytes.byteLength; i += 3) {
        socket.write(bytes.subarray(i, i + 3));
        await later(1);
      }
      socket.end();
    },
    expect: { status: 200, body: `{"é":"€😀"}` },
  },
  {
    name: "a chunked answer with extensions and trailers, in pieces",
    request: GET,
    respond: async (socket) => {
      for (const piece of [
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r",
        "\nhel",
        "lo\r\n6\r\n world\r\n0\r\n",
        "X-Trailer: 1\r\n\r\n",
      ]) {
        socket.write(piece);
        await later();
      }
    },
    expect: { status: 200, body: "hello world" },
  },
  {
    name: "a body delimited by the end of the connection",
    request: GET,
    respond: async (socket) => {
      socket.write("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\npart one, ");
      await later();
      socket.end("part two");
    },
    expect: { status: 200, body: "part one, part two" },
  },
  {
    name: "an interim 100 Continue, then the answer",
    request: POST("{}"),
    respond: (socket) => void socket.end("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\ncontent-length: 2\r\n\r\nok"),
    expect: { status: 201, body: "ok" },
  },
  {
    name: "204 has no body, whatever follows",
    request: POST("{}"),
    respond: (socket) => void socket.write("HTTP/1.1 204 No Content\r\n\r\n"),
    expect: { status: 204, body: "" },
  },
  {
    name: "an error status is an answer, not an error",
    request: POST("{}"),
    respond: (socket) => void socket.end(`HTTP/1.1 413 Payload Too Large\r\ncontent-length: 17\r\n\r\n{"error":"large"}`),
    expect: { status: 413, body: `{"error":"large"}` },
  },
  {
    name: "a 3 MiB request and a 3 MiB answer",
    request: POST(BIG),
    respond: async (socket, request) => {
      socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${request.body.byteLength}\r\n\r\n`);
      for (let i = 0; i < request.body.byteLength; i += 64 * 1024) socket.write(request.body.subarray(i, i + 64 * 1024));
      socket.end();
    },
    expect: { status: 200, body: BIG },
  },
  {
    name: "closed before the whole body arrived",
    request: GET,
    respond: (socket) => void socket.end("HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc"),
    expect: { error: /closed before the whole answer/ },
  },
  {
    name: "closed without an answer",
    request: GET,
    respond: (socket) => void socket.end(),
    expect: { error: /closed before an HTTP answer/ },
  },
  {
    name: "no answer within the timeout",
    request: { ...GET, timeoutMs: 300 },
    respond: () => undefined,
    expect: { error: /no answer within 300 ms/ },
  },
  {
    name: "not HTTP",
    request: GET,
    respond: (socket) => void socket.end("SSH-2.0-OpenSSH_9.6\r\n\r\n"),
    expect: { error: /not an HTTP\/1\.1 status line/ },
  },
  {
    name: "two different content-lengths",
    request: GET,
    respond: (socket) => void socket.end("HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\nabc"),
    expect: { error: /invalid content-length/ },
  },
  {
    name: "a transfer coding other than chunked",
    request: GET,
    respond: (socket) => void socket.end("HTTP/1.1 200 OK\r\ntransfer-encoding: gzip, chunked\r\n\r\n0\r\n\r\n"),
    expect: { error: /unsupported transfer-encoding/ },
  },
  {
    name: "a chunk size that is not hexadecimal",
    request: GET,
    respond: (socket) => void socket.end("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n"),
    expect: { error: /invalid chunk size/ },
  },
  {
    name: "a header line without a name",
    request: GET,
    respond: (socket) => void socket.end("HTTP/1.1 200 OK\r\n: nameless\r\ncontent-length: 0\r\n\r\n"),
    expect: { error: /invalid header line/ },
  },
];

/** A unix socket server answering each connection with `respond` once the whole request arrived. */
export async function scenarioServer(respond: Scenario["respond"]): Promise<{ target: ListenTarget; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "hookbox-http-"));
  const path = join(dir, "s.sock");
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    let buffered = Buffer.alloc(0);
    let answered = false;
    socket.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf("\r\n\r\n");
      if (answered || end < 0) return;
      const head = buffered.subarray(0, end).toString("latin1");
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (buffered.byteLength < end + 4 + length) return;
      answered = true;
      void respond(socket, { head, body: buffered.subarray(end + 4, end + 4 + length) });
    });
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    target: { unix: path },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ScenarioRequest {
  readonly name: string;
  readonly target: ListenTarget;
  readonly init: HttpRequestInit;
}

/**
 * Start a server per scenario, hand the requests to `client` (in this process, or another one:
 * the blocking system calls must not share a thread with the servers), collect the outcomes.
 */
export async function runScenarios(
  client: (requests: readonly ScenarioRequest[]) => Promise<Record<string, Outcome>>,
): Promise<Record<string, Outcome>> {
  const servers = await Promise.all(SCENARIOS.map((scenario) => scenarioServer(scenario.respond)));
  try {
    return await client(
      SCENARIOS.map((scenario, i) => ({ name: scenario.name, target: (servers[i] as { target: ListenTarget }).target, init: scenario.request })),
    );
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

/** Make each request in turn with one implementation; each outcome as plain JSON. */
export async function requestAll(
  requests: readonly ScenarioRequest[],
  request: (target: ListenTarget, init: HttpRequestInit) => Promise<HttpReply>,
): Promise<Record<string, Outcome>> {
  const outcomes: Record<string, Outcome> = {};
  for (const { name, target, init } of requests) {
    try {
      const reply = await request(target, init);
      outcomes[name] = { status: reply.status, body: reply.body };
    } catch (error) {
      outcomes[name] = { error: error instanceof Error ? error.message : String(error) };
    }
  }
  return outcomes;
}

/** Fails with the scenario's name when an outcome is not what the table expects. */
export function checkOutcomes(outcomes: Record<string, Outcome>): string[] {
  const problems: string[] = [];
  for (const scenario of SCENARIOS) {
    const outcome = outcomes[scenario.name];
    const expected = scenario.expect;
    if (!outcome) problems.push(`${scenario.name}: no outcome`);
    else if ("error" in expected) {
      if (!("error" in outcome) || !expected.error.test(outcome.error))
        problems.push(`${scenario.name}: expected an error matching ${expected.error}, got ${JSON.stringify(outcome).slice(0, 300)}`);
    } else if ("error" in outcome || outcome.status !== expected.status || outcome.body !== expected.body) {
      problems.push(
        `${scenario.name}: expected ${expected.status} ${JSON.stringify(expected.body.slice(0, 200))}, got ${JSON.stringify(outcome).slice(0, 300)}`,
      );
    }
  }
  return problems;
}
