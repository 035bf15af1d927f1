// Issue 8 B: throughput at 16 and 64 requests in flight — `hookbox serve` with 1 sandboxed hook
// answering POST /v1/events/PreToolUse over its unix socket, against a bare Hono app answering a
// decision-sized JSON on the same kind of socket (both Bun-compiled processes). One load client
// process per measurement, the same client for both servers, interleaved rounds.
import { spawn } from "node:child_process";
import { cpus } from "node:os";
import { compiled, cpuMs, ensureBinary, post, startBareHono, startDaemon, WRITE_EVENT } from "../env.ts";
import { fmtUs, machine, QUICK, summarize, verdict, writeSection } from "../lib.ts";

const LEVELS = [16, 64] as const;
const ROUNDS = QUICK ? 1 : 5;
const WINDOW_MS = QUICK ? 500 : 3000;
const WARMUP_MS = QUICK ? 200 : 500;
const WARMUP_PASS_MS = QUICK ? 500 : 3000;

interface ClientReport {
  readonly completed: number;
  readonly errors: number;
  readonly errorSamples: string[];
  readonly windowMs: number;
  readonly latenciesUs: number[];
}

interface Server {
  readonly name: string;
  readonly socket: string;
  /** Every process serving (daemon and sandbox workers), read at measurement time. */
  readonly pids: () => number[];
  readonly daemonPid: number;
}

interface Tally {
  completed: number;
  errors: number;
  windowMs: number;
  latenciesUs: number[];
  errorSamples: Set<string>;
  daemonCpuMs: number;
  workerCpuMs: number;
  clientCpuMs: number;
  /** Most server processes seen at once (the daemon's pool may start workers under load). */
  processes: number;
}

function runClient(
  client: string,
  socket: string,
  inFlight: number,
  body: string,
  windowMs = WINDOW_MS,
): Promise<{ report: ClientReport; clientCpuMs: number }> {
  return new Promise((done, fail) => {
    const child = spawn(client, [socket, "/v1/events/PreToolUse", String(inFlight), String(windowMs), String(WARMUP_MS)], {
      env: { PATH: "/usr/bin:/bin" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    let clientCpuMs = 0;
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.endsWith("\n")) clientCpuMs = cpuMs(child.pid as number); // before it exits, while /proc still has it
    });
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.on("error", fail);
    child.on("exit", (code) => {
      if (code !== 0) return fail(new Error(`load client exited ${code}: ${err}`));
      done({ report: JSON.parse(out) as ClientReport, clientCpuMs });
    });
    child.stdin.end(body);
  });
}

function cpuOf(pids: readonly number[]): Map<number, number> {
  return new Map(pids.map((pid) => [pid, cpuMs(pid)]));
}

export async function run(): Promise<string> {
  ensureBinary();
  const client = compiled("load-client", "bench/hooks/load-client.ts");
  const daemon = await startDaemon(1);
  const bare = await startBareHono();
  const servers: Server[] = [
    { name: "hookbox serve, 1 hook", socket: daemon.socket, pids: () => daemon.pids(), daemonPid: daemon.process.pid as number },
    { name: "bare Hono (Bun.serve)", socket: bare.socket, pids: () => [bare.process.pid as number], daemonPid: bare.process.pid as number },
  ];
  const body = JSON.stringify(WRITE_EVENT);
  // Both answer the event with 200 and an allow decision before anything is measured.
  for (const server of servers) {
    const reply = await post(server.socket, "/v1/events/PreToolUse", WRITE_EVENT);
    const decision = (JSON.parse(reply.text) as { decision?: string }).decision;
    if (reply.status !== 200 || decision !== "allow") throw new Error(`${server.name} answered ${reply.status} ${reply.text}`);
  }

  // One unmeasured pass per server first: JIT, worker warm-up, connection pools.
  for (const server of servers) await runClient(client, server.socket, 64, body, WARMUP_PASS_MS);

  const tallies = new Map<string, Tally>();
  const key = (server: Server, inFlight: number): string => `${server.name}@${inFlight}`;
  for (const server of servers)
    for (const n of LEVELS)
      tallies.set(key(server, n), {
        completed: 0,
        errors: 0,
        windowMs: 0,
        latenciesUs: [],
        errorSamples: new Set(),
        daemonCpuMs: 0,
        workerCpuMs: 0,
        clientCpuMs: 0,
        processes: 0,
      });
  for (let round = 0; round < ROUNDS; round++) {
    for (const n of LEVELS) {
      // A, B then B, A: neither server always runs right after the other.
      for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
        const before = cpuOf(server.pids());
        const { report, clientCpuMs } = await runClient(client, server.socket, n, body);
        const after = cpuOf(server.pids());
        const tally = tallies.get(key(server, n)) as Tally;
        tally.processes = Math.max(tally.processes, before.size, after.size);
        tally.completed += report.completed;
        tally.errors += report.errors;
        tally.windowMs += report.windowMs;
        for (const us of report.latenciesUs) tally.latenciesUs.push(us);
        for (const e of report.errorSamples) tally.errorSamples.add(e);
        // CPU over the whole client run (warm-up included), per answered request in the window: an estimate.
        const scale = report.windowMs / (report.windowMs + WARMUP_MS);
        for (const [pid, ms] of after) {
          const used = (ms - (before.get(pid) ?? 0)) * scale;
          if (pid === server.daemonPid) tally.daemonCpuMs += used;
          else tally.workerCpuMs += used;
        }
        tally.clientCpuMs += clientCpuMs * scale;
      }
    }
  }
  await daemon.stop();
  await bare.stop();

  const rate = (t: Tally): number => (t.completed / t.windowMs) * 1000;
  const perRequest = (ms: number, t: Tally): string => (t.completed ? fmtUs((ms * 1000) / t.completed) : "–");
  const rows = servers.flatMap((server) =>
    LEVELS.map((n) => {
      const t = tallies.get(key(server, n)) as Tally;
      const bareRate = rate(tallies.get(key(servers[1] as Server, n)) as Tally);
      const latency = summarize(server.name, t.latenciesUs);
      const cpu = server.name.startsWith("hookbox")
        ? `${perRequest(t.daemonCpuMs, t)} + ${perRequest(t.workerCpuMs, t)}`
        : perRequest(t.daemonCpuMs, t);
      return `| ${server.name} | ${n} | ${rate(t).toFixed(0)} | ${fmtUs(latency.p50Us)} | ${fmtUs(latency.p99Us)} | ${t.errors} | ${cpu} | ${perRequest(t.clientCpuMs, t)} | ${((rate(t) / bareRate) * 100).toFixed(0)}% |`;
    }),
  );
  const hookbox64 = tallies.get(key(servers[0] as Server, 64)) as Tally;
  const workersSeen = Math.max(...LEVELS.map((n) => (tallies.get(key(servers[0] as Server, n)) as Tally).processes)) - 1;
  const bare64 = tallies.get(key(servers[1] as Server, 64)) as Tally;
  const share = rate(hookbox64) / rate(bare64);
  const errors = [...tallies.values()].reduce((a, t) => a + t.errors, 0);
  const errorNote = errors
    ? `\n\n**${errors} requests failed** (non-200 or connection errors), e.g. ${[...new Set([...tallies.values()].flatMap((t) => [...t.errorSamples]))].slice(0, 3).join("; ")}.`
    : "\n\nEvery request was answered 200 (errors: 0).";
  return `## B. Throughput under concurrent load (issue 8)

${machine()}. The event is a Claude Code PreToolUse payload (a Write to \`src/app.ts\`, allowed):
\`hookbox serve\` runs the secret-path hook in its sandbox pool (default \`--workers\`; up to ${workersSeen} worker
processes were seen under load) and audits every event; bare Hono is the same Bun runtime and router answering a decision-sized JSON without
doing any work — the ceiling for any server on this socket. A closed-loop load client (one
Bun-compiled process, the same binary for both servers) keeps N requests in flight over the unix
socket; after a ${WARMUP_PASS_MS / 1000} s unmeasured pass per server, ${ROUNDS} interleaved rounds × ${WINDOW_MS / 1000} s per server and level, each after ${WARMUP_MS} ms of warm-up. Latency is
per request under that load. The client shares the ${cpus().length} cores with the server it drives, so
both servers run with the same CPU taken away; its own CPU per request is reported. Server CPU is
user+system time per answered request (hookbox: daemon + sandbox workers).

| server | in flight | req/s | p50 | p99 | errors | server CPU / request | client CPU / request | ÷ bare Hono req/s |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
${rows.join("\n")}${errorNote}

| target | measured | |
|---|---:|---|
| hookbox ≥ 40% of bare-Hono throughput at 64 in flight | ${(share * 100).toFixed(0)}% (${rate(hookbox64).toFixed(0)} vs ${rate(bare64).toFixed(0)} req/s) | ${verdict(share >= 0.4 && hookbox64.errors === 0)} |`;
}

if (import.meta.main) writeSection("throughput", await run());
