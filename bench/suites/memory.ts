// Issue 8 D: what `hookbox serve` costs to keep around — binary size, idle memory (daemon and
// sandbox workers summed, RSS and PSS) with 1 and 100 hooks, memory per warm sandbox, and cold
// start to the first answered /healthz, beside a bare Hono binary (same Bun runtime) as the floor.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, compiled, ensureBinary, memory, MiB, peakRss, post, startBareHono, startDaemon, WRITE_EVENT, writeHooks } from "../env.ts";
import { fmtUs, machine, QUICK, summarize, table, verdict, writeSection, type Summary } from "../lib.ts";

const SETTLE_MS = QUICK ? 500 : 2000;
/** The daemon's default --worker-idle (60 s) and a margin: "idle" is what a user gets, untuned. */
const IDLE_WAIT_MS = 62_000;
const WAKE_ROUNDS = QUICK ? 3 : 9;
const COLD_ROUNDS = QUICK ? 3 : 15;
const SAMPLES = QUICK ? 1 : 3;

interface Measured {
  readonly name: string;
  /** Per process: role, RSS, PSS, peak RSS (VmHWM), bytes. */
  readonly processes: { role: string; rss: number; pss: number; peak: number }[];
  readonly rss: number;
  readonly pss: number;
  readonly peak: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const mib = (bytes: number): string => `${(bytes / MiB).toFixed(1)} MiB`;
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** The processes read now (the pool may have grown or shrunk), median of a few samples each. */
async function measure(name: string, pids: () => number[]): Promise<Measured> {
  const samples: Map<number, { rss: number[]; pss: number[] }> = new Map();
  for (let i = 0; i < SAMPLES; i++) {
    if (i > 0) await sleep(200);
    for (const pid of pids()) {
      const m = memory(pid);
      const bucket = samples.get(pid) ?? { rss: [], pss: [] };
      bucket.rss.push(m.rss);
      bucket.pss.push(m.pss);
      samples.set(pid, bucket);
    }
  }
  const [main] = pids();
  const processes = [...samples].map(([pid, s]) => ({
    role: pid === main ? "daemon" : `worker ${pid}`,
    rss: median(s.rss),
    pss: median(s.pss),
    peak: peakRss(pid),
  }));
  const sum = (key: "rss" | "pss" | "peak"): number => processes.reduce((a, p) => a + p[key], 0);
  return { name, processes, rss: sum("rss"), pss: sum("pss"), peak: sum("peak") };
}

/** `events` PreToolUse events one after another (as one agent sends them), or `concurrent` at once. */
async function fire(socket: string, events: number, concurrent = 1): Promise<void> {
  for (let i = 0; i < events; i++) {
    const replies = await Promise.all(Array.from({ length: concurrent }, () => post(socket, "/v1/events/PreToolUse", WRITE_EVENT)));
    const bad = replies.find((r) => r.status !== 200);
    if (bad) throw new Error(`event answered ${bad.status}: ${bad.text}`);
  }
}

/** One PreToolUse event's round trip, in µs. */
async function timeEvent(socket: string): Promise<number> {
  const started = performance.now();
  await fire(socket, 1);
  return (performance.now() - started) * 1000;
}

/** First event after the worker stopped vs the next one (warm), with --worker-idle 1 to repeat it. */
async function wakeCost(): Promise<{ afterIdle: Summary; warm: Summary }> {
  const daemon = await startDaemon(1, ["--worker-idle", "1"]);
  const afterIdle: number[] = [];
  const warm: number[] = [];
  try {
    await fire(daemon.socket, 3);
    for (let round = 0; round < WAKE_ROUNDS; round++) {
      const deadline = performance.now() + 10_000;
      while (daemon.pids().length > 1 && performance.now() < deadline) await sleep(100);
      afterIdle.push(await timeEvent(daemon.socket));
      warm.push(await timeEvent(daemon.socket));
    }
  } finally {
    await daemon.stop();
  }
  return { afterIdle: summarize("first event after idle (starts a worker)", afterIdle), warm: summarize("the event after it (warm worker)", warm) };
}

/** Spawn → the first 200, polling the socket every millisecond; then stop the process. */
async function coldStart(command: readonly string[], env: Record<string, string>, socket: string, path: string, body?: unknown): Promise<number> {
  const started = performance.now();
  const [program, ...args] = command as [string, ...string[]];
  const child: ChildProcess = spawn(program, args, { env, stdio: ["ignore", "ignore", "ignore"] });
  const exited = new Promise((r) => child.once("exit", r));
  let elapsed = 0;
  for (;;) {
    const ok = await post(socket, path, body, body === undefined ? "GET" : "POST")
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) {
      elapsed = performance.now() - started;
      break;
    }
    if (child.exitCode !== null) throw new Error(`${program} exited ${child.exitCode} before answering`);
    if (performance.now() - started > 30_000) throw new Error(`${program} did not answer within 30 s`);
    await sleep(1);
  }
  child.kill("SIGTERM");
  await exited;
  return elapsed * 1000;
}

function processTable(rows: readonly Measured[]): string {
  const lines = rows.flatMap((m) => [
    ...m.processes.map((p) => `| ${m.name} | ${p.role} | ${mib(p.rss)} | ${mib(p.pss)} | ${mib(p.peak)} |`),
    `| **${m.name}** | **sum of ${m.processes.length}** | **${mib(m.rss)}** | **${mib(m.pss)}** | ${mib(m.peak)} |`,
  ]);
  return `| configuration | process | RSS | PSS | peak RSS (VmHWM) |\n|---|---|---:|---:|---:|\n${lines.join("\n")}`;
}

export async function run(): Promise<string> {
  ensureBinary();
  const bareBinary = compiled("bare-hono", "bench/hooks/bare-hono.ts");
  const helloBinary = compiled("hello", "bench/hooks/hello.ts");

  // Cold start first, on a quiet machine (no other daemon of this suite running yet).
  const scratch = mkdtempSync(join(tmpdir(), "hookbox-bench-cold-"));
  const hooksDir = join(scratch, "hooks");
  writeHooks(hooksDir, 1);
  const cold: { hookbox: number[]; bare: number[] } = { hookbox: [], bare: [] };
  for (let round = 0; round < COLD_ROUNDS; round++) {
    const home = join(scratch, `home-${round}`);
    const hookbox = () =>
      coldStart(
        [BINARY, "serve", "--hooks", hooksDir],
        { HOME: home, XDG_RUNTIME_DIR: join(home, "run"), PATH: "/usr/bin:/bin" },
        join(home, "run/hookbox/hookbox.sock"),
        "/healthz",
      ).then((us) => cold.hookbox.push(us));
    const bare = () =>
      coldStart(
        [bareBinary, join(scratch, `bare-${round}.sock`)],
        { PATH: "/usr/bin:/bin" },
        join(scratch, `bare-${round}.sock`),
        "/v1/events/PreToolUse",
        WRITE_EVENT,
      ).then((us) => cold.bare.push(us));
    // Alternate which goes first, so neither always follows the other's exit.
    if (round % 2 === 0) await hookbox().then(bare);
    else await bare().then(hookbox);
    rmSync(home, { recursive: true, force: true });
  }
  rmSync(scratch, { recursive: true, force: true });
  const coldRows: Summary[] = [
    summarize("bare Hono binary: spawn → first 200 (the floor)", cold.bare),
    summarize("hookbox serve, 1 hook: spawn → first 200 on /healthz", cold.hookbox),
  ];

  // Memory: all three running side by side, each with its defaults, settled and warmed the same way.
  const bare = await startBareHono();
  const one = await startDaemon(1);
  const hundred = await startDaemon(100);
  await sleep(SETTLE_MS);
  const idleBare = await measure("bare Hono binary, idle", () => [bare.process.pid as number]);
  const startOne = await measure("hookbox serve, 1 hook, just after start", () => one.pids());
  const startHundred = await measure("hookbox serve, 100 hooks, just after start", () => hundred.pids());
  await fire(bare.socket, 5);
  await fire(one.socket, 5);
  await fire(hundred.socket, 5);
  await sleep(SETTLE_MS);
  const warmBare = await measure("bare Hono binary, after 5 requests", () => [bare.process.pid as number]);
  const warmOne = await measure("hookbox serve, 1 hook, right after 5 events", () => one.pids());
  const warmHundred = await measure("hookbox serve, 100 hooks, right after 5 events (all 100 warm)", () => hundred.pids());
  // Not a target: what a burst costs while the pool holds the workers it started for it.
  await fire(one.socket, 3, 8);
  await sleep(SETTLE_MS);
  const burstOne = await measure("hookbox serve, 1 hook, after bursts of 8 concurrent events", () => one.pids());
  // Idle as shipped: the default --worker-idle passes without events and the pool stops its workers.
  await sleep(IDLE_WAIT_MS);
  const idleOne = await measure(`hookbox serve, 1 hook, idle (${IDLE_WAIT_MS / 1000} s without events)`, () => one.pids());
  const loadedHundred = await measure(`hookbox serve, 100 hooks loaded, idle (${IDLE_WAIT_MS / 1000} s without events)`, () => hundred.pids());
  const wakeOne = await timeEvent(one.socket);
  const wakeHundred = await timeEvent(hundred.socket);
  await sleep(SETTLE_MS);
  const wokenOne = await measure("hookbox serve, 1 hook, after the first event after idle", () => one.pids());
  await bare.stop();
  await one.stop();
  await hundred.stop();
  // What the first event after idle pays: a worker start. --worker-idle 1 only to repeat it quickly.
  const wake = await wakeCost();

  const workers = (m: Measured) => m.processes.filter((p) => p.role !== "daemon");
  const workerOf = (m: Measured) => workers(m)[0];
  const perSandboxRss = ((workerOf(warmHundred)?.rss ?? 0) - (workerOf(warmOne)?.rss ?? 0)) / 99;
  const perSandboxPss = ((workerOf(warmHundred)?.pss ?? 0) - (workerOf(warmOne)?.pss ?? 0)) / 99;
  const size = statSync(BINARY).size;
  const coldHookbox = coldRows[1] as Summary;
  const coldBare = coldRows[0] as Summary;
  const all = [startOne, startHundred, warmOne, warmHundred, burstOne, idleOne, loadedHundred, wokenOne];
  const highestPeak = Math.max(...all.flatMap((m) => m.processes.map((p) => p.peak)));
  const workerRss = (m: Measured) =>
    workers(m)
      .map((p) => mib(p.rss))
      .join(", ") || "none";

  return `## D. Memory, binary size and cold start (issue 8)

${machine()}. Memory is read from \`/proc/PID/smaps_rollup\` for the daemon and every sandbox
worker process alive at measurement time (its children, \`pgrep -P\`), summed. **RSS vs PSS:**
every process maps the same ${mib(size)} binary, and RSS counts each shared page in every process
that touches it, so the RSS sum overstates what the daemon and its workers cost together; PSS
divides each shared page among the processes that map it, so the PSS sum is the machine's real
cost. Targets are judged on the RSS sum (the conservative reading), with PSS shown beside it.
Every daemon runs with its defaults: one sandbox worker starts with it, more while all are busy
(up to one per core), and each stops after \`--worker-idle\` (60 s) without events, the last one
too (\`--workers 0-<cores>\`); the next event starts one again. "Just after start" is
${SETTLE_MS / 1000} s after start; "right after 5 events" is after 5 PreToolUse events one after another, as one agent
sends them (with 100 hooks, each event runs all 100, each in its own warm slot), and another ${SETTLE_MS / 1000} s;
then 3 bursts of 8 concurrent events (not a target: the pool may start workers for a burst);
"idle" is ${IDLE_WAIT_MS / 1000} s later without events. Peak RSS (VmHWM) is each process's high-water mark since it started.

| | bytes | MiB |
|---|---:|---:|
| dist/hookbox | ${size} | ${mib(size)} |
| Bun-compiled hello world (the runtime alone) | ${statSync(helloBinary).size} | ${mib(statSync(helloBinary).size)} |
| Bun-compiled bare Hono | ${statSync(bareBinary).size} | ${mib(statSync(bareBinary).size)} |

${processTable([idleBare, warmBare, startOne, warmOne, burstOne, idleOne, wokenOne, startHundred, warmHundred, loadedHundred])}

Highest peak RSS of any one process: ${mib(highestPeak)} (a high-water mark far above the settled RSS is a transient,
e.g. at startup, that the machine must still be able to hold).

Memory per warm sandbox: (worker with 100 warm slots − worker with 1) ÷ 99 = **${(perSandboxRss / 1024).toFixed(0)} KiB RSS**, ${(perSandboxPss / 1024).toFixed(0)} KiB PSS
(the 100 hooks of an event run as one chain in one worker; worker RSS with 1 hook: ${workerRss(warmOne)}; with 100: ${workerRss(warmHundred)}).

The first event after idle starts a worker before its hooks run (measured on its own daemon with
\`--worker-idle 1\`, ${WAKE_ROUNDS} rounds, so that it can be repeated); in the runs above it took
${fmtUs(wakeOne)} (1 hook) and ${fmtUs(wakeHundred)} (100 hooks, all cold again in the new worker):

${table([wake.afterIdle, wake.warm], wake.warm.name)}

Cold start, ${COLD_ROUNDS} interleaved spawns each, polling the socket every millisecond until the first 200
(\`/healthz\` runs a probe through the sandbox pool, so a worker is up):

${table(coldRows, coldBare.name)}

| target | measured | |
|---|---:|---|
| idle ≤ 64 MiB (RSS sum, 1 hook, default idle) | ${mib(idleOne.rss)} RSS (PSS ${mib(idleOne.pss)}; just after start ${mib(startOne.rss)}, right after events ${mib(warmOne.rss)}) | ${verdict(idleOne.rss <= 64 * MiB)} |
| 100 hooks loaded ≤ 128 MiB (RSS sum, default idle) | ${mib(loadedHundred.rss)} RSS (PSS ${mib(loadedHundred.pss)}; with all 100 run and warm ${mib(warmHundred.rss)}) | ${verdict(loadedHundred.rss <= 128 * MiB)} |
| cold start ≤ 150 ms (spawn → first /healthz 200, p50) | ${fmtUs(coldHookbox.p50Us)} (p99 ${fmtUs(coldHookbox.p99Us)}; floor ${fmtUs(coldBare.p50Us)}) | ${verdict(coldHookbox.p50Us <= 150_000)} |`;
}

if (import.meta.main) writeSection("memory", await run());
