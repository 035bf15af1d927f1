// Issue 16: what the audit log's hash chain costs per event. In-process: one event's records (a
// decision and a run record) written by the chained sink — under the append lock, each line
// hashed — against the same bytes appended as the sink did before the chain. Whole processes:
// `hookbox emit` through a daemon and without one, this build against BENCH_AUDIT_BASELINE (a
// binary built from the commit before the chain), when given.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppendLock } from "../../src/platform/lock.ts";
import { AuditSink } from "../../src/decide/audit/sink.ts";
import type { AuditEntry } from "../../src/decide/audit/record.ts";
import { detectRuntime } from "../../src/platform/index.ts";
import { BINARY, ensureBinary, post, runProcess, WRITE_EVENT, writeHooks } from "../env.ts";
import { fmtUs, machine, QUICK, sideBySide, table, type Summary } from "../lib.ts";

const now = new Date().toISOString();
/** An event's records as the evaluator writes them (sizes as in a real log: ~560 and ~800 bytes). */
const EVENT: readonly AuditEntry[] = [
  {
    v: 1,
    id: "5f0c7a52-4c1e-4b0e-9a53-6d1c8d1f6f01",
    event_id: "0b6c2f3e-8f1a-4d7b-9a35-2f9b1c3d4e5f",
    hook_id: "secret-path-0",
    event_type: "PreToolUse",
    session_id: "6f7b1d2e-3c4a-4b5c-8d9e-0f1a2b3c4d5e",
    trigger_reason: "PreToolUse matched tool Write|Edit",
    status: "completed",
    action: "continue",
    duration_ms: 1,
    started_at: now,
    completed_at: now,
    injections: [],
    host_calls: [],
    logs: [],
    stats: { cpu_ms: 0.4, heap_bytes: 181_234, cold_start: false },
  },
  {
    v: 1,
    kind: "decision",
    id: "9be6230b-fdb0-483b-8ee5-7c973a5a23d0",
    event_id: "0b6c2f3e-8f1a-4d7b-9a35-2f9b1c3d4e5f",
    event_type: "PreToolUse",
    session_id: "6f7b1d2e-3c4a-4b5c-8d9e-0f1a2b3c4d5e",
    agent: "claude",
    project: "/home/dev/project",
    decision: "allow",
    hook_set: { registry_version: 1, hooks: 1, broken: [], operator: "ok" },
    served_by: { via: "daemon", pid: 4242, build: "0.1.0+ab6e6a04b148" },
    runs: 1,
    duration_ms: 2,
    started_at: now,
    completed_at: now,
  },
];

export async function run(): Promise<string> {
  const host = await detectRuntime();
  const dir = mkdtempSync(join(tmpdir(), "hookbox-bench-audit-"));
  const sinkOptions = { fs: host.fs, pid: host.pid, maxFileBytes: 1024 * 1024 * 1024, keepFiles: 1 };
  const daemonSink = await AuditSink.open({ ...sinkOptions, path: join(dir, "daemon", "hookbox-audit.jsonl"), repairTail: true });
  mkdirSync(join(dir, "plain"));
  const plain = await host.fs.openAppend(join(dir, "plain", "hookbox-audit.jsonl"), 0o600);
  const emitChained = join(dir, "emit", "hookbox-audit.jsonl");
  mkdirSync(join(dir, "lock"));
  const lock = new AppendLock({ io: host.fs.lock, path: join(dir, "lock", "hookbox-audit.jsonl.lock"), pid: host.pid });
  const serialise = (): string => EVENT.map((r) => `${JSON.stringify(r)}\n`).join("");
  const options = QUICK ? { rounds: 2, perRound: 20, warmup: 5 } : { rounds: 10, perRound: 300, warmup: 300 };
  const inProcess = await sideBySide(
    [
      { name: "daemon before the chain: serialise, one append", run: () => plain.append(serialise()) },
      { name: "daemon, chained: lock, stamp check, 2 × SHA-256 (node:crypto), one append", run: () => daemonSink.write(EVENT) },
      // What the sink's open, write and close did for emit before the chain.
      {
        name: "emit before the chain: open, serialise, append, fsync, close",
        run: async () => {
          const path = join(dir, "emit-plain", "hookbox-audit.jsonl");
          await host.fs.mkdirp(join(dir, "emit-plain"), 0o700, true);
          await host.fs.size(path);
          const handle = await host.fs.openAppend(path, 0o600);
          await host.fs.chmod(path, 0o600);
          await handle.append(serialise());
          await handle.sync();
          await handle.close();
        },
      },
      {
        name: "emit, chained: open, lock, read the tail, 2 × SHA-256 (node:crypto), append, fsync, close",
        run: async () => {
          const sink = await AuditSink.open({
            ...sinkOptions,
            path: emitChained,
            maxFileBytes: Number.POSITIVE_INFINITY,
            keepFiles: 0,
            repairTail: false,
          });
          await sink.write(EVENT);
          await sink.close();
        },
      },
      // The lock alone: create the symlink, read it back twice, remove it.
      {
        name: "the append lock alone: acquire, check, release",
        run: async () => {
          const held = await lock.acquire();
          held.stillHeld();
          held.release();
        },
      },
      // Group commit: eight requests answered at once share one lock and one write.
      { name: "daemon, chained, 8 events at once (one batch)", run: () => Promise.all(Array.from({ length: 8 }, () => daemonSink.write(EVENT))) },
    ],
    options,
  );
  await daemonSink.close();
  await plain.close();
  rmSync(dir, { recursive: true, force: true });

  const by = (prefix: string): Summary => inProcess.find((r) => r.name.startsWith(prefix)) as Summary;
  const daemonAdded = by("daemon, chained:").p50Us - by("daemon before").p50Us;
  const emitAdded = by("emit, chained").p50Us - by("emit before").p50Us;
  const batchPerEvent = by("daemon, chained, 8").p50Us / 8;
  const processes = await wholeProcesses();
  return `## E. The audit log's hash chain: cost per event (issue 16)

${machine()}. One event's records (a run record and its decision record, ~1.4 KB) written to a
file in a temporary directory. "Before the chain" is what the sink did before: one append of
the serialised lines (the daemon keeps the file open; \`emit\` opens it, appends, closes). The
chained sink takes the append lock (a symlink: create, read back before appending and at
release, remove), checks the file's stamp (or, for \`emit\`, reads the last line), hashes each
line (SHA-256, node:crypto, synchronously) and appends.

${table(inProcess, by("daemon before").name)}

Added per event (p50): **${fmtUs(daemonAdded)}** in the daemon, **${fmtUs(emitAdded)}** in \`emit\` without a
daemon; with eight events in one batch the daemon's whole write is ${fmtUs(batchPerEvent)} per event.

${processes}`;
}

/**
 * Against a build from before the chain (each with its own daemon and data directory): a
 * request to the daemon as emit sends it (the daemon's whole answer, its audit write included),
 * and emit as the agent runs it, a whole process per event.
 */
async function wholeProcesses(): Promise<string> {
  const baseline = process.env.BENCH_AUDIT_BASELINE;
  if (!baseline || !existsSync(baseline)) {
    return "Against the build before the chain: set `BENCH_AUDIT_BASELINE` to a binary built from the commit before it.";
  }
  ensureBinary();
  const payload = JSON.stringify(WRITE_EVENT);
  const worlds = [];
  for (const b of [
    { name: "this build", binary: BINARY },
    { name: "before the chain", binary: baseline },
  ]) {
    worlds.push({ ...b, ...(await world(b.binary)) });
  }
  const requests = await sideBySide(
    worlds.map((w) => ({
      name: `POST /v1/agents/claude (${w.name})`,
      run: async () => {
        const reply = await post(w.socket, "/v1/agents/claude", WRITE_EVENT);
        if (reply.status !== 200) throw new Error(`${w.name}: ${reply.status} ${reply.text}`);
      },
    })),
    QUICK ? { rounds: 2, perRound: 20, warmup: 5 } : { rounds: 20, perRound: 100, warmup: 100 },
  );
  const processes = await sideBySide(
    worlds.flatMap((w) => [
      {
        name: `emit, daemon running (${w.name})`,
        run: () => runProcess([w.binary, "emit", "--agent", "claude", "--hooks", w.hooks], payload, w.env),
      },
      {
        name: `emit --no-daemon (${w.name})`,
        run: () => runProcess([w.binary, "emit", "--agent", "claude", "--hooks", w.hooks, "--no-daemon"], payload, w.env),
      },
    ]),
    QUICK ? { rounds: 2, perRound: 3, warmup: 1 } : { rounds: 10, perRound: 10, warmup: 3 },
  );
  for (const w of worlds) await w.stop();
  return `Against a build from before the chain, each with its own daemon (one hook) and data directory:
the daemon's answer to one request as emit sends it (its audit write included), and
\`hookbox emit --agent claude\` spawned per event. The processes' times vary by milliseconds
from run to run on a shared machine: the in-process rows above are the cost.

${table(requests, requests[1]?.name)}

${table(processes)}`;
}

async function world(binary: string): Promise<{ socket: string; hooks: string; env: Record<string, string>; stop: () => Promise<void> }> {
  const home = mkdtempSync(join(tmpdir(), "hookbox-bench-audit-world-"));
  const hooks = join(home, "hooks");
  writeHooks(hooks, 1);
  const env = { HOME: home, XDG_RUNTIME_DIR: join(home, "run"), PATH: "/usr/bin:/bin" };
  const child = spawn(binary, ["serve", "--hooks", hooks], { env, stdio: "ignore" });
  const socket = join(home, "run/hookbox/hookbox.sock");
  const deadline = Date.now() + 30_000;
  while (
    !(await post(socket, "/healthz", undefined, "GET")
      .then((r) => r.status === 200)
      .catch(() => false))
  ) {
    if (Date.now() > deadline) throw new Error(`${binary} serve did not start`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    socket,
    hooks,
    env,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      rmSync(home, { recursive: true, force: true });
    },
  };
}

if (import.meta.main) console.log(await run());
