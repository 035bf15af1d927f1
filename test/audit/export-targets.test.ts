import { createServer, type IncomingMessage, type Server } from "node:http";
import { createServer as createTcpServer, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { otlpTarget } from "../../src/decide/audit/export/otlp.ts";
import { formatSyslog, parseSyslogAddress, syslogTarget } from "../../src/decide/audit/export/syslog.ts";
import { nodeSocketHost } from "../../src/platform/node-sockets.ts";
import { expectOtlpLogsJson, type OtlpLogs } from "../helpers/otlp.ts";
import { decisionRecord, runRecord } from "./fixtures.ts";

const header = { facility: "local0" as const, hostname: "box-1", appName: "hookbox", pid: 42 };

describe("syslog (RFC 5424)", () => {
  it("one record per message: PRI from facility and severity, the record's time, MSGID decision or run, the JSON as MSG", () => {
    const denied = formatSyslog(decisionRecord(), header, 65_000);
    // local0 (16) * 8 + notice (5) = 133
    expect(denied).toBe(`<133>1 2026-11-24T10:00:00.003Z box-1 hookbox 42 decision - ${JSON.stringify(decisionRecord())}`);
    expect(formatSyslog(decisionRecord({ decision: "allow" }), header, 65_000)).toMatch(/^<134>1 /);
    expect(formatSyslog(runRecord({ status: "failed" }), { ...header, facility: "user" }, 65_000)).toMatch(/^<11>1 \S+ box-1 hookbox 42 run - \{/);
    expect(formatSyslog(decisionRecord({ incomplete: { code: "x", cause: "y", rule: "z" } }), header, 65_000)).toMatch(/^<132>1 /);
  });

  it("header fields are printable ASCII without spaces; a record over the limit becomes a stub naming it", () => {
    expect(formatSyslog(runRecord(), { ...header, hostname: "bad host\n" }, 65_000)).toContain(" badhost hookbox ");
    expect(formatSyslog(runRecord(), { ...header, hostname: "  " }, 65_000)).toContain(" - hookbox ");
    const big = runRecord({ reason: "x".repeat(5000) });
    const message = formatSyslog(big, header, 1024);
    const json = JSON.parse(message.slice(message.indexOf(" - ") + 3)) as Record<string, unknown>;
    expect(json).toMatchObject({ v: 1, kind: "run", id: "r-1", event_id: "e-1", truncated: { limit: 1024, see: "the local audit file" } });
  });

  it("parses the address forms", () => {
    expect(parseSyslogAddress("unix:/dev/log")).toEqual({ kind: "unix-dgram", path: "/dev/log" });
    expect(parseSyslogAddress("unix-stream:/run/s.sock")).toEqual({ kind: "unix-stream", path: "/run/s.sock" });
    expect(parseSyslogAddress("udp://127.0.0.1:514")).toEqual({ kind: "udp", hostname: "127.0.0.1", port: 514 });
    expect(parseSyslogAddress("tcp://[::1]:601")).toEqual({ kind: "tcp", hostname: "::1", port: 601 });
  });

  it("on TCP each message is octet-counted (RFC 6587), and a relay that went away is reconnected to", async () => {
    const received: string[] = [];
    const connections: Socket[] = [];
    const server = createTcpServer((socket) => {
      connections.push(socket);
      socket.on("data", (chunk) => received.push(chunk.toString()));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    const target = syslogTarget({ address: `tcp://127.0.0.1:${port}`, facility: "local0", app_name: "hookbox", max_message_kb: 60 }, nodeSocketHost, {
      hostname: "h",
      pid: 1,
    });
    await target.send([decisionRecord(), runRecord()]);
    await new Promise((r) => setTimeout(r, 50));
    const stream = received.join("");
    const frames: string[] = [];
    for (let rest = stream; rest.length > 0;) {
      const space = rest.indexOf(" ");
      const length = Number(rest.slice(0, space));
      frames.push(
        Buffer.from(rest.slice(space + 1))
          .subarray(0, length)
          .toString(),
      );
      rest = Buffer.from(rest.slice(space + 1))
        .subarray(length)
        .toString();
    }
    expect(frames.map((f) => f.split(" ")[5])).toEqual(["decision", "run"]);
    // The relay restarts: the send after it fails (and is retried by the queue), the next one reconnects.
    for (const socket of connections) socket.destroy();
    await new Promise((r) => setTimeout(r, 50));
    await expect(target.send([runRecord()])).rejects.toThrow();
    await target.send([runRecord({ id: "after" })]);
    await new Promise((r) => setTimeout(r, 50));
    expect(connections).toHaveLength(2);
    expect(received.join("")).toContain('"id":"after"');
    await target.close();
    server.close();
  });
});

/** An OTLP/HTTP receiver: records each request's path, headers and JSON body. */
async function receiver(
  respond: (req: IncomingMessage) => number = () => 200,
): Promise<{ server: Server; url: string; requests: { path: string; headers: IncomingMessage["headers"]; body: unknown }[] }> {
  const requests: { path: string; headers: IncomingMessage["headers"]; body: unknown }[] = [];
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (c: Buffer) => (text += c.toString()));
    req.on("end", () => {
      requests.push({ path: req.url ?? "", headers: req.headers, body: JSON.parse(text) });
      res.writeHead(respond(req), { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/logs`, requests };
}

let open: Server | undefined;
afterEach(() => {
  open?.close();
  open = undefined;
});

describe("OTLP logs over HTTP (the OpenTelemetry exporter, JSON encoding)", () => {
  it("sends one log record per audit record: resource, scope, time, severity, the record as a structured body, attributes to filter on", async () => {
    const rx = await receiver();
    open = rx.server;
    const target = await otlpTarget(
      { endpoint: rx.url, headers: { "x-team": "blue" }, timeout_ms: 5000 },
      { hostname: "box-1", pid: 42, version: "9.9.9" },
    );
    await target.send([decisionRecord(), runRecord({ status: "failed", error_code: "handler_threw" })]);
    await target.close();
    expect(rx.requests).toHaveLength(1);
    const [request] = rx.requests;
    expect(request?.path).toBe("/v1/logs");
    expect(request?.headers["content-type"]).toMatch(/application\/json/);
    expect(request?.headers["x-team"]).toBe("blue");
    expectOtlpLogsJson(request?.body);
    const body = request?.body as OtlpLogs;
    const resource = Object.fromEntries(body.resourceLogs[0]!.resource.attributes.map((a) => [a.key, a.value]));
    expect(resource).toMatchObject({
      "service.name": { stringValue: "hookbox" },
      "service.version": { stringValue: "9.9.9" },
      "host.name": { stringValue: "box-1" },
    });
    const scope = body.resourceLogs[0]!.scopeLogs[0]!;
    expect(scope.scope).toMatchObject({ name: "hookbox.audit", version: "9.9.9" });
    const [decision, run] = scope.logRecords;
    expect(decision).toMatchObject({ timeUnixNano: "1795514400003000000", severityNumber: 10, severityText: "NOTICE" });
    expect(Object.fromEntries(decision!.attributes.map((a) => [a.key, a.value]))).toMatchObject({
      "hookbox.kind": { stringValue: "decision" },
      "hookbox.decision": { stringValue: "deny" },
      "hookbox.event_id": { stringValue: "e-1" },
    });
    const fields = Object.fromEntries((decision!.body.kvlistValue?.values ?? []).map((kv) => [kv.key, kv.value]));
    expect(fields).toMatchObject({
      kind: { stringValue: "decision" },
      decision: { stringValue: "deny" },
      subject: { stringValue: "rm -rf /" },
      runs: { intValue: 1 },
    });
    expect(fields.hook_set?.kvlistValue?.values.map((kv) => kv.key)).toEqual(["registry_version", "hooks", "broken", "operator"]);
    expect(run).toMatchObject({ severityNumber: 17, severityText: "ERROR" });
  });

  it("a receiver that refuses fails the send (the queue retries it)", async () => {
    const rx = await receiver(() => 400);
    open = rx.server;
    const target = await otlpTarget({ endpoint: rx.url, headers: {}, timeout_ms: 2000 }, { hostname: "h", pid: 1, version: "1" });
    await expect(target.send([runRecord()])).rejects.toThrow();
    await target.close();
  });
});
