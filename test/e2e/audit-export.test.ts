import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import { createConnection, createServer as createTcpServer } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../helpers/binary.ts";
import { call, DaemonProcess, DaemonWorld } from "../helpers/daemon.ts";
import { expectOtlpLogsJson, type OtlpLogs } from "../helpers/otlp.ts";
import { onPath } from "../helpers/tools.ts";

/** Debian puts it in /usr/sbin, on root's PATH (CI runs as root); another user adds /usr/sbin to PATH to run these tests. */
const RSYSLOGD = onPath("rsyslogd");
const GUARD = `id: guard
events: [PreToolUse]
handler: { code: "export default (e) => e.tool_input.command === 'rm' ? ({ action: 'deny', reason: 'no rm' }) : ({})" }
`;

async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A real rsyslogd with its own configuration: UDP, TCP and a unix datagram socket in, one file out. */
class Rsyslog {
  readonly out: string;
  readonly socket: string;
  private child: ChildProcess | undefined;
  stderr = "";

  constructor(
    private readonly dir: string,
    readonly udp: number,
    readonly tcp: number,
  ) {
    this.out = join(dir, "received.log");
    this.socket = join(dir, "log.sock");
  }

  async start(): Promise<void> {
    const conf = join(this.dir, "rsyslog.conf");
    writeFileSync(
      conf,
      `global(workDirectory="${this.dir}")
module(load="imudp")
module(load="imtcp")
module(load="imuxsock" SysSock.Use="off")
input(type="imudp" address="127.0.0.1" port="${this.udp}")
input(type="imtcp" address="127.0.0.1" port="${this.tcp}")
input(type="imuxsock" Socket="${this.socket}" UseSpecialParser="off" ParseHostname="on" IgnoreTimestamp="off")
*.* action(type="omfile" file="${this.out}" template="RSYSLOG_SyslogProtocol23Format")
`,
    );
    this.child = spawn(RSYSLOGD as string, ["-n", "-f", conf, "-i", join(this.dir, "rsyslogd.pid")], { stdio: ["ignore", "pipe", "pipe"] });
    this.child.stderr?.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    await until("rsyslogd to listen", () =>
      existsSync(this.socket)
        ? new Promise<true | undefined>((resolve) => {
            const probe = createConnection({ host: "127.0.0.1", port: this.tcp }, () => {
              probe.destroy();
              resolve(true);
            });
            probe.on("error", () => resolve(undefined));
          })
        : undefined,
    );
  }

  /** The messages received so far, as RFC 5424 fields and the record each carries. */
  messages(): { pri: number; app: string; msgid: string; record: { id: string; kind?: string; event_id: string; hook_id?: string } }[] {
    if (!existsSync(this.out)) return [];
    return readFileSync(this.out, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const match = /^<(\d+)>1 (\S+) (\S+) (\S+) (\S+) (\S+) (-|\[.*?\]) (.*)$/.exec(line);
        if (!match) throw new Error(`rsyslog wrote a line that is not RFC 5424: ${line}`);
        return { pri: Number(match[1]), app: match[4] as string, msgid: match[6] as string, record: JSON.parse(match[8] as string) };
      });
  }

  stop(): void {
    this.child?.kill("SIGTERM");
  }
}

describe("audit export (the binary's daemon, audit.export in the operator file)", () => {
  let world: DaemonWorld;
  let daemon: DaemonProcess | undefined;
  beforeAll(() => {
    world = new DaemonWorld();
    writeFileSync(join(world.hooks, "guard.yaml"), GUARD);
  });
  afterEach(async () => {
    await daemon?.stop();
    daemon = undefined;
  });
  afterAll(() => world.cleanup());

  const startWith = async (exportYaml: string): Promise<DaemonProcess> => {
    const config = join(world.dir, "hookbox.yaml");
    writeFileSync(config, `audit:\n  export:\n${exportYaml}`);
    daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--config", config]);
    return daemon;
  };
  const post = async (command: string): Promise<string> => {
    const reply = await call(
      world.socket,
      "POST",
      "/v1/events/PreToolUse",
      { session_id: "export", cwd: world.dir, tool_name: "Bash", tool_input: { command } },
      {},
      5000,
    );
    expect(reply.status).toBe(200);
    return (reply.json as { event_id: string }).event_id;
  };

  describe("to a real rsyslogd", () => {
    let rsyslog: Rsyslog | undefined;
    let skip: string | undefined;
    beforeAll(async () => {
      if (!RSYSLOGD) {
        skip = "rsyslogd is not on PATH (.ci/install-tools installs Debian's rsyslog package, in /usr/sbin)";
        return;
      }
      const dir = join(world.dir, "rsyslog");
      mkdirSync(dir);
      rsyslog = new Rsyslog(dir, await freePort(), await freePort());
      try {
        await rsyslog.start();
      } catch (error) {
        skip = `rsyslogd could not start here: ${(error as Error).message}; ${rsyslog.stderr.trim()}`;
      }
    });
    afterAll(() => rsyslog?.stop());

    for (const transport of ["udp", "tcp", "unix"] as const) {
      it(`over ${transport}: every record, as RFC 5424 with its JSON`, async (ctx) => {
        if (skip || !rsyslog) return ctx.skip(skip ?? "no rsyslogd");
        const address =
          transport === "unix" ? `unix:${rsyslog.socket}` : `${transport}://127.0.0.1:${transport === "udp" ? rsyslog.udp : rsyslog.tcp}`;
        const running = await startWith(`    syslog: { address: "${address}", facility: local3, app_name: hookbox-${transport} }\n`);
        expect(running.stderr).toContain(`exporting audit records to syslog ${address}`);
        const denied = await post("rm");
        const allowed = await post("ls");
        const mine = await until("rsyslog to write both events' records", () => {
          const got = rsyslog!.messages().filter((m) => m.app === `hookbox-${transport}`);
          return got.filter((m) => m.msgid === "decision").length >= 2 ? got : undefined;
        });
        const decisions = mine.filter((m) => m.msgid === "decision");
        expect(decisions.map((m) => m.record.event_id)).toEqual([denied, allowed]);
        // local3 (19) * 8 + notice (5) for the denial, + info (6) for the allow.
        expect(decisions.map((m) => m.pri)).toEqual([157, 158]);
        // The guard's runs (self-protect, on by default, records its own beside them).
        const runs = mine.filter((m) => m.msgid === "run" && m.record.hook_id === "guard");
        expect(runs.map((m) => m.record.event_id)).toEqual([denied, allowed]);
        const inFile = readFileSync(world.auditFile, "utf8")
          .trim()
          .split("\n")
          .map((line) => (JSON.parse(line) as { id: string }).id);
        for (const m of mine) expect(inFile).toContain(m.record.id);
      });
    }
  });

  describe("to an OTLP/HTTP receiver", () => {
    let receiver: Server;
    let url: string;
    let mode: "ok" | "hang" = "ok";
    const bodies: OtlpLogs[] = [];
    const hung: ServerResponse[] = [];
    beforeAll(async () => {
      receiver = createServer((req, res) => {
        let text = "";
        req.on("data", (chunk: Buffer) => (text += chunk.toString()));
        req.on("end", () => {
          if (mode === "hang") return void hung.push(res);
          bodies.push(JSON.parse(text) as OtlpLogs);
          res.writeHead(200, { "content-type": "application/json" }).end("{}");
        });
      });
      await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
      url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/v1/logs`;
    });
    afterAll(() => {
      for (const res of hung) res.destroy();
      receiver.close();
    });

    const metric = async (name: string): Promise<number> => {
      const text = (await call(world.socket, "GET", "/metrics")).text;
      return Number(new RegExp(`^${name}\\{target="otlp"\\} (\\d+)`, "m").exec(text)?.[1] ?? Number.NaN);
    };
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

    it("ships every record in the OTLP JSON encoding; with the receiver hung the buffer fills, drops are counted, and answers do not wait", async () => {
      await startWith(`    buffer_records: 20\n    otlp: { endpoint: "${url}", timeout_ms: 60000, headers: { x-fleet: lab } }\n`);
      const ids: string[] = [];
      const baseline: number[] = [];
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        ids.push(await post(i % 2 ? "rm" : "ls"));
        baseline.push(performance.now() - started);
      }
      const shipped = await until("the receiver to get every decision", () => {
        const records = bodies.flatMap((b) => b.resourceLogs.flatMap((r) => r.scopeLogs.flatMap((s) => s.logRecords)));
        const decisions = records.filter((r) => r.attributes.some((a) => a.key === "hookbox.kind" && a.value.stringValue === "decision"));
        return decisions.length >= 20 ? decisions : undefined;
      });
      for (const body of bodies) expectOtlpLogsJson(body);
      expect(shipped.map((r) => r.attributes.find((a) => a.key === "hookbox.event_id")?.value.stringValue)).toEqual(ids);
      expect(await metric("hookbox_audit_export_dropped_total")).toBe(0);

      // The receiver stops answering (it takes the request and never replies): the export waits for its 60 s timeout.
      mode = "hang";
      const down: number[] = [];
      for (let i = 0; i < 60; i++) {
        const started = performance.now();
        await post("ls");
        down.push(performance.now() - started);
      }
      await until("drops to be counted", async () => ((await metric("hookbox_audit_export_dropped_total")) > 0 ? true : undefined));
      expect(await metric("hookbox_audit_export_queued")).toBeLessThanOrEqual(20);
      const dropped = await metric("hookbox_audit_export_dropped_total");
      // 60 events wrote 120 records; at most 20 wait, one batch may be in flight.
      expect(dropped).toBeGreaterThanOrEqual(120 - 20 - 20);
      const health = (await call(world.socket, "GET", "/healthz")).json as { status: string };
      expect(health.status).toBe("ok");
      console.log(
        `audit export: median answer ${median(baseline).toFixed(1)} ms with the receiver up, ${median(down).toFixed(1)} ms with it hung (${dropped} records dropped, counted)`,
      );
      // Answers never wait for the export: were they held behind it, each would take its 60 s timeout.
      expect(Math.max(...down)).toBeLessThan(5000);
      expect(median(down)).toBeLessThan(median(baseline) * 3 + 25);
    });
  });
});
