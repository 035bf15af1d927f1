// Issue 30: the first tool call of a session is as fast as the rest. What a person feels as the
// agent drives Hookbox in the README world (every standard hook plus a project hook): the first
// PreToolUse after SessionStart's emit started the daemon (a 2 s model turn between them), the
// first tool call after a long pause inside a session, emit with no daemon, later events through
// the daemon, serve's cold start, and what the daemon holds while a session is open. This build
// side by side with a baseline binary (BENCH_BASELINE=path, e.g. main's dist/hookbox), in one run.
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { BINARY, childPids, compiled, ensureBinary, memory, MiB, post, ROOT, runProcess } from "../env.ts";
import { fmtUs, machine, QUICK, summarize, table, verdict, writeSection, type Summary } from "../lib.ts";
import { daemonsOf, readmeWorld, standardHookIds, stopDaemons, toolCall, waitForDaemon, type ReadmeWorld } from "../readme-world.ts";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const ROUNDS = QUICK ? 2 : Number(process.env.BENCH_ROUNDS ?? 8);
/** The model turn between SessionStart and the first tool call. */
const TURN_MS = 2000;
/** A long pause: past the worker's idle time (60 s) and the operator file's idle exit set below (30 s), as 20 minutes would be past the default 15. */
const PAUSE_MS = QUICK ? 3000 : 65_000;
const PAUSE_ROUNDS = QUICK ? 1 : 3;
const IDLE_EXIT_SECONDS = 30;

interface Build {
  readonly label: string;
  readonly binary: string;
  readonly world: ReadmeWorld;
}

function buildOf(label: string, binary: string): Build {
  const world = readmeWorld();
  // The operator's idle exit shortened so that a one-minute pause is "long" (the default is 15 minutes).
  appendFileSync(join(world.home, ".config", "hookbox", "hookbox.yaml"), `daemon: { idle_exit_seconds: ${IDLE_EXIT_SECONDS} }\n`);
  return { label, binary, world };
}

function sessionStart(world: ReadmeWorld, session: string): string {
  return JSON.stringify({ session_id: session, transcript_path: "", cwd: world.project, hook_event_name: "SessionStart", source: "startup" });
}

async function emit(build: Build, payload: string, env: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  const code = await runProcess([build.binary, "emit", "--agent", "claude"], payload, { ...build.world.env, ...env }, build.world.project);
  if (code !== 0) throw new Error(`${build.label} emit exited ${code}`);
  return (performance.now() - started) * 1000;
}

/**
 * From its log: ms after `since` (SessionStart answered) at which the daemon started last served, and finished warming;
 * negative when before the answer (a daemon started while SessionStart's own hooks ran). Lines before `from` (that emit's spawn) are older daemons'.
 */
function daemonMilestones(world: ReadmeWorld, from: number, since: number): [string, number][] {
  const log = join(world.home, ".local", "share", "hookbox", "daemon.log");
  if (!existsSync(log)) return [];
  const at = (line: string): number => Date.parse(line.slice("hookbox: ".length, "hookbox: ".length + 24));
  const lines = readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => at(line) >= from);
  const serving = lines.find((line) => / serving \d+ hooks?/.test(line));
  const warmed = lines.find((line) => / warmed \S+: /.test(line));
  return [
    ...(serving ? [["(daemon serving, after SessionStart answered)", at(serving) - since] as [string, number]] : []),
    ...(warmed ? [["(daemon warm, after SessionStart answered)", at(warmed) - since] as [string, number]] : []),
  ];
}

function footprint(pid: number): { rss: number; processes: number } {
  const pids = [pid, ...childPids(pid)];
  let rss = 0;
  for (const p of pids) {
    try {
      rss += memory(p).rss;
    } catch {
      // exited meanwhile
    }
  }
  return { rss, processes: pids.length };
}

/** Spawn serve in the project → first answered agent event on its socket, in µs. */
async function serveColdStart(build: Build, body: string): Promise<number> {
  const socket = join(build.world.root, "serve.sock");
  rmSync(socket, { force: true });
  const started = performance.now();
  const child = spawn(build.binary, ["serve", "--socket", socket], { env: build.world.env, cwd: build.world.project, stdio: "ignore" });
  const exited = new Promise((r) => child.once("exit", r));
  try {
    for (;;) {
      const reply = existsSync(socket) ? await post(socket, "/v1/agents/claude", JSON.parse(body)).catch(() => undefined) : undefined;
      if (reply?.status === 200) return (performance.now() - started) * 1000;
      if (child.exitCode !== null || performance.now() - started > 60_000) throw new Error(`${build.label} serve did not answer`);
      await sleep(1);
    }
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

export async function run(): Promise<string> {
  ensureBinary();
  const baseline = process.env.BENCH_BASELINE;
  const builds = [buildOf("this build", BINARY), ...(baseline ? [buildOf("baseline", baseline)] : [])];
  const hello = compiled("hello", "bench/hooks/hello.ts");
  const nodeHook = [process.env.BENCH_NODE ?? "node", join(ROOT, "bench/hooks/check.mjs")];
  const plain = { PATH: "/usr/bin:/bin" };
  const samples = new Map<string, number[]>();
  const add = (name: string, us: number): void => void (samples.get(name) ?? samples.set(name, []).get(name))?.push(us);
  const calls = new Map(builds.map((b) => [b, toolCall(b.world.project)]));
  const row = (what: string, b: Build): string => `${what} — ${b.label}`;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < 5; i++) add("Bun-compiled hello world", await timed(() => runProcess([hello], "{}", plain)));
      for (let i = 0; i < 5; i++)
        add("command hook: node", await timed(() => runProcess(nodeHook, (calls.get(builds[0] as Build) as { pre: string }).pre, plain)));
      for (const b of builds) {
        const call = calls.get(b) as { pre: string; post: string };
        // 1. SessionStart's emit starts the daemon; a model turn; the first PreToolUse.
        await stopDaemons(b.world);
        const spawnedAt = Date.now();
        const sessionStartUs = await emit(b, sessionStart(b.world, `first-${round}`));
        const answeredAt = Date.now();
        await sleep(TURN_MS);
        add(row("first PreToolUse of a session (SessionStart started the daemon, 2 s before)", b), await emit(b, call.pre));
        add(row("(SessionStart's own emit, which starts the daemon)", b), sessionStartUs);
        // Where the first tool call's time goes: when the daemon answered, and when its warm-up ended (its log).
        for (const [what, at] of daemonMilestones(b.world, spawnedAt, answeredAt)) add(row(what, b), at * 1000);
        // 2. Later events through that daemon.
        await emit(b, call.post);
        for (let i = 0; i < 5; i++) add(row("a later PreToolUse through the daemon", b), await emit(b, call.pre));
        await stopDaemons(b.world);
        // 3. No daemon at all (HOOKBOX_NO_DAEMON=1), the registry snapshot cache warm.
        for (let i = 0; i < 2; i++)
          add(row("emit with no daemon (HOOKBOX_NO_DAEMON=1, snapshot cache warm)", b), await emit(b, call.pre, { HOOKBOX_NO_DAEMON: "1" }));
        // 4. serve started in the project → its first answered PreToolUse.
        add(row("serve started in the project: spawn → first answered PreToolUse", b), await serveColdStart(b, call.pre));
      }
    }

    // 5. A long pause inside one session, both builds' sessions paused side by side.
    const held: string[] = [];
    for (let round = 0; round < PAUSE_ROUNDS; round++) {
      for (const b of builds) {
        await stopDaemons(b.world);
        const call = calls.get(b) as { pre: string; post: string };
        await emit(b, sessionStart(b.world, `pause-${round}`));
        await waitForDaemon(b.world);
        for (let i = 0; i < 3; i++) {
          await emit(b, call.pre);
          await emit(b, call.post);
        }
      }
      await sleep(PAUSE_MS);
      for (const b of builds) {
        const [daemon] = await daemonsOf(b.world);
        const mem = daemon ? footprint(daemon.pid) : undefined;
        held.push(
          `${b.label}: ${mem ? `daemon up, ${(mem.rss / MiB).toFixed(1)} MiB RSS in ${mem.processes} process${mem.processes === 1 ? "" : "es"}` : "no daemon (it had exited)"}`,
        );
        add(row(`first PreToolUse after a ${PAUSE_MS / 1000} s pause inside the session`, b), await emit(b, (calls.get(b) as { pre: string }).pre));
      }
    }

    const rows = [...samples.entries()].map(([name, values]) => summarize(name, values));
    const by = (name: string): Summary | undefined => rows.find((r) => r.name === name);
    const nodeRow = by("command hook: node") as Summary;
    const helloRow = by("Bun-compiled hello world") as Summary;
    const ratioTo = (name: string, b: Build, base: Summary): number => (by(row(name, b)) as Summary).p50Us / base.p50Us;
    const me = builds[0] as Build;
    const first = "first PreToolUse of a session (SessionStart started the daemon, 2 s before)";
    const later = "a later PreToolUse through the daemon";
    const none = "emit with no daemon (HOOKBOX_NO_DAEMON=1, snapshot cache warm)";
    const serve = "serve started in the project: spawn → first answered PreToolUse";
    const pause = `first PreToolUse after a ${PAUSE_MS / 1000} s pause inside the session`;
    const laterMinusHello = ((by(row(later, me)) as Summary).p50Us - helloRow.p50Us) / 1000;
    const targets: [string, string, boolean][] = [
      [
        `first PreToolUse of a session ≤ 0.5× a node command hook (p50)`,
        `${ratioTo(first, me, nodeRow).toFixed(2)}×`,
        ratioTo(first, me, nodeRow) <= 0.5,
      ],
      [
        `later events through the daemon ≤ 0.3× a node command hook (p50)`,
        `${ratioTo(later, me, nodeRow).toFixed(2)}×`,
        ratioTo(later, me, nodeRow) <= 0.3,
      ],
      [`emit through the daemon minus a Bun-compiled hello world ≤ 4 ms (p50)`, `${laterMinusHello.toFixed(1)} ms`, laterMinusHello <= 4],
      [
        `emit with no daemon, snapshot cache warm ≤ 3× a node command hook (p50)`,
        `${ratioTo(none, me, nodeRow).toFixed(2)}×`,
        ratioTo(none, me, nodeRow) <= 3,
      ],
      [
        `first tool call after a long pause inside one session ≤ 1× a node command hook (p50)`,
        `${ratioTo(pause, me, nodeRow).toFixed(2)}×`,
        ratioTo(pause, me, nodeRow) <= 1,
      ],
      [
        `serve cold start to first answered event ≤ 250 ms (p50)`,
        fmtUs((by(row(serve, me)) as Summary).p50Us),
        (by(row(serve, me)) as Summary).p50Us <= 250_000,
      ],
    ];
    return `## F. The first tool call of a session (issue 30) — ${new Date().toISOString().slice(0, 10)}

${machine()}; load average at the end ${loadAverage()}. The README world: every standard hook (${standardHookIds().length}) in the operator
file plus one project hook, Claude Code payloads (a Write to \`src/app.ts\`, allowed after every guard ran), every
process timed from spawn to exit as Claude Code runs a command hook. ${baseline ? `"baseline" is the binary at \`${baseline}\` (main before this change), run in a world of its own beside this build's, interleaved in the same rounds.` : "No baseline binary was given (BENCH_BASELINE)."}
Rounds: ${ROUNDS} (first tool call, later events, no daemon, serve), ${PAUSE_ROUNDS} (the long pause). The operator file sets
\`daemon.idle_exit_seconds: ${IDLE_EXIT_SECONDS}\` so that a ${PAUSE_MS / 1000} s pause is past both the idle exit and the sandbox worker's
60 s idle time, as a 20-minute pause is past the default 15 minutes.

- **first PreToolUse of a session**: no daemon; SessionStart's emit starts one (this build: as soon as the event's hook set is known, before its hooks run; the baseline: after answering) and answers; ${TURN_MS / 1000} s later the PreToolUse is timed.
- **a later PreToolUse**: the next events through that daemon.
- **no daemon**: \`HOOKBOX_NO_DAEMON=1\`, the registry snapshot cache warm (no memory snapshots yet: see below).
- **serve**: \`hookbox serve\` spawned in the project, polled every millisecond until an agent PreToolUse is answered.
- **long pause**: SessionStart, three tool calls, ${PAUSE_MS / 1000} s of nothing, then the PreToolUse timed.

${table(rows, nodeRow.name)}

While paused: ${held.join("; ")}.

| target (this build) | measured | |
|---|---:|---|
${targets.map(([name, value, ok]) => `| ${name} | ${value} | ${verdict(ok)} |`).join("\n")}`;
  } finally {
    for (const b of builds) {
      await stopDaemons(b.world).catch(() => undefined);
      b.world.cleanup();
    }
  }
}

async function timed(run: () => Promise<number>): Promise<number> {
  const started = performance.now();
  const code = await run();
  if (code !== 0) throw new Error(`exited ${code}`);
  return (performance.now() - started) * 1000;
}

function loadAverage(): string {
  return loadavg()
    .map((n) => n.toFixed(1))
    .join(" ");
}

if (import.meta.main) writeSection("first-call", await run());
