// Issue 17: fast by default. What a user who follows the README has — every standard hook enabled
// in the operator file, one project hook, `hookbox emit` as the agent's hook command and no
// daemon started by hand — measured side by side in one run: emit through the daemon it started
// itself, the first emit of a session (no daemon yet; snapshot cache warm, and cold), a session
// of 200 tool calls driven as the agent drives it, serve's cold start, and the daemon's memory.
import { spawn, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { BINARY, childPids, compiled, ensureBinary, memory, MiB, post, ROOT, runProcess, startBareHono } from "../env.ts";
import { fmtUs, machine, QUICK, summarize, table, verdict, writeSection, type Summary } from "../lib.ts";
import { daemonsOf, emitOnce, readmeWorld, standardHookIds, stopDaemons, toolCall, waitForDaemon, type ReadmeWorld } from "../readme-world.ts";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const mib = (bytes: number): string => `${(bytes / MiB).toFixed(1)} MiB`;

/** The daemon's default --worker-idle (60 s) and a margin: an idle daemon as a user gets it. */
const IDLE_WAIT_MS = QUICK ? 3000 : 62_000;
const ROUNDS = QUICK ? 2 : 10;
const SESSION_PAIRS = QUICK ? 10 : 200;
const SESSION_ROUNDS = QUICK ? 1 : 3;
const COLD_ROUNDS = QUICK ? 2 : 15;
const PROJECTS = 20;

interface ProcessContender {
  readonly name: string;
  readonly command: readonly string[];
  readonly env: Record<string, string>;
  readonly cwd?: string;
  readonly perRound: number;
  /** Before each measured run, not timed. */
  readonly setup?: () => Promise<void>;
  /** After each measured run, not timed. */
  readonly teardown?: () => Promise<void>;
}

/** Interleaved rounds of whole processes, each timed from spawn to exit, with untimed setup and teardown around each. */
async function processesSideBySide(contenders: readonly ProcessContender[], stdin: string): Promise<Summary[]> {
  const samples = contenders.map(() => [] as number[]);
  const once = async (contender: ProcessContender): Promise<number> => {
    await contender.setup?.();
    const started = performance.now();
    const code = await runProcess(contender.command, stdin, contender.env, contender.cwd);
    const elapsed = (performance.now() - started) * 1000;
    if (code !== 0) throw new Error(`${contender.name} exited ${code}`);
    await contender.teardown?.();
    return elapsed;
  };
  for (const contender of contenders) await once(contender); // warm-up, not counted
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, contender] of contenders.entries()) {
      for (let i = 0; i < contender.perRound; i++) samples[index]?.push(await once(contender));
    }
  }
  return contenders.map((contender, index) => summarize(contender.name, samples[index] as number[]));
}

/** A daemon emit started, warm: it has answered events already. */
async function warmDaemon(world: ReadmeWorld, calls: { pre: string; post: string }): Promise<void> {
  if ((await daemonsOf(world)).length > 0) return;
  emitOnce(world, calls.pre);
  await waitForDaemon(world);
  for (let i = 0; i < 3; i++) {
    emitOnce(world, calls.pre);
    emitOnce(world, calls.post);
  }
}

/** The daemon the measured emit started (it starts after emit answered): up, then stopped, so the next run finds none. */
async function reap(world: ReadmeWorld): Promise<void> {
  await waitForDaemon(world).catch(() => undefined);
  await stopDaemons(world);
}

/** One session: `pairs` tool calls, a PreToolUse and a PostToolUse each, one process per event, in order. */
async function session(
  command: readonly string[],
  env: Record<string, string>,
  cwd: string,
  calls: { pre: string; post: string },
  pairs: number,
): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < pairs; i++) {
    for (const payload of [calls.pre, calls.post]) {
      const code = await runProcess(command, payload, env, cwd);
      if (code !== 0) throw new Error(`${command.join(" ")} exited ${code} in a session`);
    }
  }
  return performance.now() - started;
}

/** Spawn → first answered event on the socket, polled every millisecond, in µs. */
async function coldStart(command: readonly string[], env: Record<string, string>, socket: string, path: string, body: string): Promise<number> {
  rmSync(socket, { force: true });
  const started = performance.now();
  const [program, ...args] = command as [string, ...string[]];
  const child = spawn(program, args, { env, stdio: "ignore" });
  const exited = new Promise((r) => child.once("exit", r));
  try {
    for (;;) {
      const reply = await post(socket, path, JSON.parse(body)).catch(() => undefined);
      if (reply?.status === 200) return (performance.now() - started) * 1000;
      if (child.exitCode !== null || performance.now() - started > 30_000) throw new Error(`${command.join(" ")} did not answer`);
      await sleep(1);
    }
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

/** RSS and PSS of a process and its children (the sandbox workers), summed. */
function footprint(pid: number): { rss: number; pss: number; processes: number } {
  const pids = [pid, ...childPids(pid)];
  let rss = 0;
  let pss = 0;
  for (const p of pids) {
    try {
      const m = memory(p);
      rss += m.rss;
      pss += m.pss;
    } catch {
      // exited meanwhile
    }
  }
  return { rss, pss, processes: pids.length };
}

export async function run(): Promise<string> {
  ensureBinary();
  const world = readmeWorld();
  const calls = toolCall(world.project);
  const hello = compiled("hello", "bench/hooks/hello.ts");
  const node = process.env.BENCH_NODE ?? "node";
  const plain = { PATH: "/usr/bin:/bin" };
  const emit = [BINARY, "emit", "--agent", "claude"];
  const nodeHook = [node, join(ROOT, "bench/hooks/check.mjs")];
  try {
    // Checked once: the Write is allowed, a .env write is denied, by each path.
    const deny = JSON.stringify({ ...JSON.parse(calls.pre), tool_input: { file_path: join(world.project, ".env"), content: "A=1" } });
    for (const step of ["no daemon, cold cache", "daemon"]) {
      const out = spawnSync(BINARY, ["emit", "--agent", "claude"], { cwd: world.project, env: world.env, input: deny, encoding: "utf8" });
      if (!/"permissionDecision":"deny"/.test(out.stdout)) throw new Error(`emit (${step}) did not deny a .env write: ${out.stdout} ${out.stderr}`);
      await waitForDaemon(world);
    }
    emitOnce(world, calls.pre);

    const firstEmit = (cold: boolean): ProcessContender => ({
      name: `hookbox emit, first of a session (no daemon yet; snapshot cache ${cold ? "cold" : "warm"}; it starts one)`,
      command: emit,
      env: world.env,
      cwd: world.project,
      perRound: QUICK ? 1 : 3,
      setup: async () => {
        await stopDaemons(world);
        if (cold) rmSync(world.cacheDir, { recursive: true, force: true });
      },
      teardown: () => reap(world),
    });
    const rows = await processesSideBySide(
      [
        { name: "Bun-compiled hello world", command: [hello], env: plain, perRound: 10 },
        { name: "command hook: node", command: nodeHook, env: plain, perRound: 10 },
        firstEmit(false),
        firstEmit(true),
        {
          name: "hookbox emit through the daemon it started (2nd and later events)",
          command: emit,
          env: world.env,
          cwd: world.project,
          perRound: 10,
          setup: () => warmDaemon(world, calls),
        },
      ],
      calls.pre,
    );
    const by = (prefix: string): Summary => rows.find((r) => r.name.startsWith(prefix)) as Summary;
    const helloRow = by("Bun-compiled hello");
    const nodeRow = by("command hook: node");
    const warmRow = by("hookbox emit, first of a session (no daemon yet; snapshot cache warm");
    const coldRow = by("hookbox emit, first of a session (no daemon yet; snapshot cache cold");
    const daemonRow = by("hookbox emit through the daemon");

    // A session as the agent drives it: warm cache, no daemon at its start.
    const hookboxSessions: number[] = [];
    const nodeSessions: number[] = [];
    for (let round = 0; round < SESSION_ROUNDS; round++) {
      await stopDaemons(world);
      hookboxSessions.push(await session(emit, world.env, world.project, calls, SESSION_PAIRS));
      nodeSessions.push(await session(nodeHook, plain, world.project, calls, SESSION_PAIRS));
    }
    const [sessionDaemon] = await daemonsOf(world);
    const sessionRatio = median(hookboxSessions) / median(nodeSessions);

    // serve's cold start, beside a bare Hono binary's.
    await stopDaemons(world);
    const bare = compiled("bare-hono", "bench/hooks/bare-hono.ts");
    const socket = join(world.runDir, "hookbox", "hookbox.sock");
    const bareSocket = join(world.root, "bare.sock");
    const serve = [BINARY, "serve"];
    const starts = { bare: [] as number[], warm: [] as number[], cold: [] as number[] };
    for (let i = 0; i < COLD_ROUNDS; i++) {
      starts.bare.push(await coldStart([bare, bareSocket], plain, bareSocket, "/v1/events/PreToolUse", calls.pre));
      starts.warm.push(await coldStart(serve, world.env, socket, "/v1/agents/claude", calls.pre));
      rmSync(world.cacheDir, { recursive: true, force: true });
      starts.cold.push(await coldStart(serve, world.env, socket, "/v1/agents/claude", calls.pre));
      emitOnce(world, calls.pre); // the cache warm again (and a daemon started: stopped below)
      await reap(world);
    }
    const startRows = [
      summarize("bare Hono binary: spawn → first 200 (the floor)", starts.bare),
      summarize("hookbox serve: spawn → first answered event (snapshot cache warm)", starts.warm),
      summarize("hookbox serve: spawn → first answered event (snapshot cache cold)", starts.cold),
    ];
    const serveWarm = startRows[1] as Summary;

    // Memory: the daemon emit starts, idle; then with 20 projects loaded.
    const bareServer = await startBareHono();
    await sleep(2000);
    const bareIdle = footprint(bareServer.process.pid as number);
    await bareServer.stop();
    await stopDaemons(world);
    emitOnce(world, calls.pre);
    const daemon = await waitForDaemon(world);
    for (let i = 0; i < 5; i++) {
      emitOnce(world, calls.pre);
      emitOnce(world, calls.post);
    }
    await sleep(IDLE_WAIT_MS);
    const idle = footprint(daemon.pid);
    for (let i = 1; i < PROJECTS; i++) world.addProject(`project-${i}`);
    for (let i = 0; i < PROJECTS; i++) {
      const project = i === 0 ? world.project : join(world.root, `project-${i}`);
      const call = toolCall(project, `p${i}`);
      emitOnce(world, call.pre, project);
      emitOnce(world, call.post, project);
    }
    const info = JSON.parse((await post(daemon.socket, "/v1/daemon", undefined, "GET")).text) as { projects: unknown[]; pid: number };
    if (info.pid !== daemon.pid || info.projects.filter((p) => p !== null).length < PROJECTS)
      throw new Error(`the daemon does not hold ${PROJECTS} projects: ${JSON.stringify(info.projects)}`);
    await sleep(2000);
    const loaded = footprint(daemon.pid);
    await sleep(IDLE_WAIT_MS);
    const loadedIdle = footprint(daemon.pid);
    await stopDaemons(world);

    const ratio = (a: Summary, b: Summary): number => a.p50Us / b.p50Us;
    const targets = [
      [
        `emit through the daemon it started, 2nd+ events ≤ 1.3× a Bun-compiled hello world (p50)`,
        ratio(daemonRow, helloRow),
        1.3,
        `${fmtUs(daemonRow.p50Us)} vs ${fmtUs(helloRow.p50Us)}`,
      ],
      [
        `first emit of a session, snapshot cache warm ≤ the node command hook (p50)`,
        ratio(warmRow, nodeRow),
        1,
        `${fmtUs(warmRow.p50Us)} vs ${fmtUs(nodeRow.p50Us)}`,
      ],
      [
        `first emit of a session, snapshot cache cold ≤ 1.5× the node command hook (p50)`,
        ratio(coldRow, nodeRow),
        1.5,
        `${fmtUs(coldRow.p50Us)} vs ${fmtUs(nodeRow.p50Us)}`,
      ],
      [
        `a session of ${SESSION_PAIRS} PreToolUse+PostToolUse pairs ≤ 25% of the same with node command hooks (total time, median of ${SESSION_ROUNDS})`,
        sessionRatio,
        0.25,
        `${(median(hookboxSessions) / 1000).toFixed(1)} s vs ${(median(nodeSessions) / 1000).toFixed(1)} s`,
      ],
    ] as const;
    const absolute = [
      [
        `serve cold start to first answer ≤ 150 ms (p50, snapshot cache warm)`,
        serveWarm.p50Us / 1000,
        150,
        `${fmtUs(serveWarm.p50Us)}: ${(serveWarm.p50Us / (startRows[0] as Summary).p50Us).toFixed(2)}× the bare Hono binary's ${fmtUs((startRows[0] as Summary).p50Us)}`,
      ],
      [
        `idle auto-started daemon ≤ 64 MiB (RSS, daemon + workers)`,
        idle.rss / MiB,
        64,
        `${mib(idle.rss)} (PSS ${mib(idle.pss)}, ${idle.processes} process${idle.processes === 1 ? "" : "es"}): ${(idle.rss / bareIdle.rss).toFixed(2)}× an idle bare Hono binary's ${mib(bareIdle.rss)}`,
      ],
      [
        `${PROJECTS} projects loaded ≤ 160 MiB (RSS, daemon + workers, right after their events)`,
        loaded.rss / MiB,
        160,
        `${mib(loaded.rss)} (PSS ${mib(loaded.pss)}, ${loaded.processes} processes); idle ${mib(loadedIdle.rss)}: ${(loaded.rss / bareIdle.rss).toFixed(2)}× the bare Hono binary`,
      ],
    ] as const;
    return `## E. Fast by default: the daemon emit starts itself (issue 17)

${machine()}. The setup a user who follows the README has: every standard hook
(${standardHookIds().length}) enabled in \`~/.config/hookbox/hookbox.yaml\`, one project (a repository) with one hook of its own in
\`.hookbox/hooks\`, the agent's hook command \`hookbox emit --agent claude\` run in the project for
a Claude Code PreToolUse of a Write to \`src/app.ts\` (allowed after every guard ran; a \`.env\`
write was checked to be denied both ways first), and no \`hookbox serve\` anywhere. Every process
is timed from spawn to exit with its stdout read, as Claude Code runs a command hook. "First of a
session": no daemon answers; emit answers itself, then starts one (counted: it is part of that
emit); between runs the daemon it started is stopped, untimed. "Snapshot cache cold": its
directory removed before the run. Interleaved rounds, all contenders in one run.

${table(rows, helloRow.name)}

**A session**: ${SESSION_PAIRS} tool calls, each a PreToolUse and a PostToolUse, one process per event in order, as
the agent runs them; Hookbox starts with no daemon and a warm cache (its first event answers
itself and starts the daemon, the others go through it); the node session runs the same check as
a node command hook per event. Totals per round (interleaved): Hookbox ${hookboxSessions.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(", ")}; node ${nodeSessions.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(", ")}. The daemon had answered ${sessionDaemon?.events ?? "?"} events by the end.

**serve's cold start**, ${COLD_ROUNDS} interleaved spawns each, polling the socket every millisecond until the
first answer (an agent's event, POST /v1/agents/claude, every standard hook run):

${table(startRows, (startRows[0] as Summary).name)}

**Memory** (\`/proc/PID/smaps_rollup\`, the daemon and its sandbox workers summed): the daemon emit
started, ${IDLE_WAIT_MS / 1000} s after its last event (its worker stops after 60 s idle): ${mib(idle.rss)} RSS, ${mib(idle.pss)} PSS.
Then one tool call in each of ${PROJECTS} projects (each its own hook set: the standard hooks and its own hook):
${mib(loaded.rss)} RSS, ${mib(loaded.pss)} PSS right after (${loaded.processes} processes); ${mib(loadedIdle.rss)} RSS once idle again. An idle bare Hono binary: ${mib(bareIdle.rss)}.

| target | measured | |
|---|---:|---|
${targets.map(([name, value, limit, detail]) => `| ${name} | ${name.includes("25%") ? `${(value * 100).toFixed(0)}%` : `${value.toFixed(2)}×`} (${detail}) | ${verdict(value <= limit)} |`).join("\n")}
${absolute.map(([name, value, limit, detail]) => `| ${name} | ${detail} | ${verdict(value <= limit)} |`).join("\n")}`;
  } finally {
    await stopDaemons(world).catch(() => undefined);
    world.cleanup();
  }
}

if (import.meta.main) writeSection("daemon", await run());
