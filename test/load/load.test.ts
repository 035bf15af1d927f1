import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { machine, percentile, writeSection } from "../../bench/lib.ts";
import { BUILT_BINARY } from "../helpers/binary.ts";
import { DaemonProcess, DaemonWorld } from "../helpers/daemon.ts";
import { childWorkers, isRunning } from "../security/harness.ts";

/**
 * Load with hostile hooks, through the binary's daemon (two workers):
 *  1. N events at 64 in flight, 10% of them for hostile hooks, one worker stopped with SIGSTOP
 *     midway: no unexpected 5xx, every event answered, every acknowledged (200) event audited,
 *     benign events decided correctly, the stopped worker replaced.
 *  2. kill -9 of the daemon mid-load, then a restart: clients saw errors, not hangs; the audit
 *     file reads cleanly; every event acknowledged before the kill is in it.
 *
 * CI runs a reduced variant; `npm run test:load` (LOAD_FULL=1) runs 20,000 events and writes
 * its results to BENCHMARKS.md (section "load").
 */

const FULL = process.env.LOAD_FULL === "1";
const EVENTS = Number(process.env.LOAD_EVENTS ?? (FULL ? 20_000 : 2_000));
const KILL_PHASE_EVENTS = FULL ? 8_000 : 1_500;
const IN_FLIGHT = 64;
const HOSTILE_SHARE = 0.1;
/** A request with no answer after this long is a hang (the longest hook here needs ~2 s). */
const HANG_MS = 30_000;

const BENIGN_LIMITS = "limits: { timeout_ms: 1500 }";
const HOOKS: Record<string, string> = {
  "guard.yaml": `id: guard\nevents: [PreToolUse]\npriority: 10\nmatch: { tool: "Write|Edit", paths: ["**/.env"] }\n${BENIGN_LIMITS}\nhandler: { code: "export default (e) => ({ action: 'deny', reason: 'no secrets: ' + e.tool_input.file_path })" }\n`,
  "recorder.yaml": `id: recorder\nevents: [PreToolUse]\npriority: 20\n${BENIGN_LIMITS}\nhandler: { code: "export default (e) => ({ reason: 'seen ' + e.tool_input.file_path })" }\n`,
};

/** The hostile mix: event name suffix → handler, limits, and the codes that contain it. */
const HOSTILE: Record<string, { code: string; limits: string; expect: readonly string[] }> = {
  cpu: { code: "export default () => { for (;;) {} }", limits: "{ cpu_ms: 20, timeout_ms: 1500 }", expect: ["sandbox_cpu"] },
  memory: {
    code: "export default () => { const a = []; for (;;) a.push(new Uint8Array(256 * 1024)); }",
    limits: "{ memory_mb: 8, cpu_ms: 1000, timeout_ms: 1500 }",
    expect: ["sandbox_memory"],
  },
  stack: { code: "function f() { return f() + 1; }\nexport default () => f();", limits: "{ timeout_ms: 1500 }", expect: ["sandbox_stack"] },
  throws: {
    code: "export default () => { throw new Error('boom\\n' + 'x'.repeat(5000)); }",
    limits: "{ timeout_ms: 1500 }",
    expect: ["handler_threw"],
  },
  logs: {
    code: "export default () => { for (;;) console.log('l'.repeat(1000)); }",
    limits: "{ log_kb: 16, timeout_ms: 1500 }",
    expect: ["sandbox_log_size"],
  },
  result: { code: "export default () => ({ reason: 'r'.repeat(300000) })", limits: "{ timeout_ms: 1500 }", expect: ["sandbox_result_size"] },
  hung: { code: "export default () => new Promise(() => {})", limits: "{ timeout_ms: 1500 }", expect: ["handler_hung"] },
  microtasks: {
    code: "export default () => { const f = () => Promise.resolve().then(f); f(); return new Promise(() => {}); }",
    limits: "{ cpu_ms: 20, timeout_ms: 1500 }",
    expect: ["sandbox_cpu"],
  },
  wedge: {
    code: "export default () => Array.prototype.indexOf.call({ length: 2 ** 32 - 1 }, 1)",
    limits: "{ timeout_ms: 300 }",
    expect: ["sandbox_timeout"],
  },
};
/** Wedges cost a worker each (killed and replaced): one hostile event in fifty. */
const HOSTILE_KINDS = Object.keys(HOSTILE).flatMap((kind) => (kind === "wedge" ? [kind] : (Array(7).fill(kind) as string[])));

interface Outcome {
  readonly kind: string;
  readonly status: number | "error" | "hang";
  readonly ms: number;
  readonly eventId?: string;
  readonly problem?: string;
  /** Its run landed on the SIGSTOPped worker and timed out there. */
  readonly stopped?: boolean;
}

const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });

function post(socket: string, path: string, body: object): Promise<{ status: number; text: string }> {
  const bytes = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      { socketPath: socket, agent, method: "POST", path, headers: { "content-type": "application/json", "content-length": String(bytes.length) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.setTimeout(HANG_MS, () => req.destroy(Object.assign(new Error("hang"), { hang: true })));
    req.on("error", reject);
    req.end(bytes);
  });
}

/** The i-th event of the load: 10% hostile, the rest tool calls (a tenth of those write a .env). */
function eventFor(i: number): { kind: string; path: string; body: object } {
  if ((i * 7919) % 100 < HOSTILE_SHARE * 100) {
    const kind = HOSTILE_KINDS[i % HOSTILE_KINDS.length] as string;
    return { kind, path: `/v1/events/load.${kind}`, body: { session_id: `load-${i}` } };
  }
  const secret = i % 10 === 3;
  const file = secret ? `/proj/.env` : `/proj/src/f${i}.ts`;
  return {
    kind: secret ? "benign-deny" : "benign-allow",
    path: "/v1/events/PreToolUse",
    body: { session_id: `load-${i}`, cwd: "/proj", tool_name: "Write", tool_input: { file_path: file, content: "x" } },
  };
}

/**
 * Checks one answer; returns what was wrong, if anything. A run that timed out although its hook
 * cannot (anything but a wedge) ran on the worker stopped with SIGSTOP: it is counted apart
 * (`stopped`), and there can be only one — the pool kills that worker when the run overruns.
 */
function judge(kind: string, text: string): { problem?: string; stopped?: boolean } {
  const decision = JSON.parse(text) as { decision: string; decided_by?: string; runs: { hook_id: string; status: string; error_code?: string }[] };
  const timedOut = decision.runs.some((r) => r.error_code === "sandbox_timeout");
  if (kind !== "wedge" && timedOut) return { stopped: true };
  if (kind === "benign-deny")
    return decision.decision === "deny" && decision.decided_by === "guard" ? {} : { problem: `expected guard's deny: ${text.slice(0, 300)}` };
  if (kind === "benign-allow") {
    const run = decision.runs.find((r) => r.hook_id === "recorder");
    return decision.decision === "allow" && run?.status === "completed" ? {} : { problem: `expected an allow: ${text.slice(0, 300)}` };
  }
  const run = decision.runs.find((r) => r.hook_id === `hostile-${kind}`);
  const allowed = HOSTILE[kind]?.expect ?? [];
  return run?.status === "failed" && allowed.includes(run.error_code ?? "") ? {} : { problem: `hostile ${kind}: ${text.slice(0, 300)}` };
}

/** Send `count` events starting at `from`, `IN_FLIGHT` at a time; `onProgress` sees the acknowledged count. */
async function drive(socket: string, from: number, count: number, onProgress?: (acknowledged: number) => void): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = from;
  let acknowledged = 0;
  const lane = async (): Promise<void> => {
    while (next < from + count) {
      const i = next++;
      const { kind, path, body } = eventFor(i);
      const started = performance.now();
      try {
        const reply = await post(socket, path, body);
        const ms = performance.now() - started;
        if (reply.status === 200) {
          acknowledged++;
          const eventId = (JSON.parse(reply.text) as { event_id: string }).event_id;
          const verdict = judge(kind, reply.text);
          outcomes.push({ kind, status: 200, ms, eventId, ...verdict });
          onProgress?.(acknowledged);
        } else {
          outcomes.push({ kind, status: reply.status, ms, problem: reply.text.slice(0, 300) });
        }
      } catch (error) {
        const hang = (error as { hang?: boolean }).hang === true;
        outcomes.push({ kind, status: hang ? "hang" : "error", ms: performance.now() - started, problem: (error as Error).message });
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return outcomes;
}

/** Every audit record's event id, across the live file and rotated ones; every line must parse. */
function auditedEventIds(world: DaemonWorld): { ids: Set<string>; lines: number; unparsable: number } {
  const dir = join(world.auditFile, "..");
  const ids = new Set<string>();
  let lines = 0;
  let unparsable = 0;
  // The log and its rotated files; not the lock beside them, which a restarted daemon may remove meanwhile.
  for (const name of readdirSync(dir).filter((n) => n.startsWith("hookbox-audit.jsonl") && !n.endsWith(".lock"))) {
    for (const line of readFileSync(join(dir, name), "utf8").split("\n")) {
      if (!line) continue;
      lines++;
      try {
        ids.add((JSON.parse(line) as { event_id: string }).event_id);
      } catch {
        unparsable++;
      }
    }
  }
  return { ids, lines, unparsable };
}

function stats(outcomes: readonly Outcome[]): { count: number; p50: number; p95: number; p99: number; max: number } {
  const sorted = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

const ms = (value: number): string => (value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`);

describe(`load: ${EVENTS} events at ${IN_FLIGHT} in flight, ${HOSTILE_SHARE * 100}% hostile (${FULL ? "full" : "reduced CI"} variant)`, () => {
  let world: DaemonWorld;
  let daemon: DaemonProcess;
  const report: string[] = [];
  beforeAll(async () => {
    world = new DaemonWorld();
    for (const [name, text] of Object.entries(HOOKS)) writeFileSync(join(world.hooks, name), text);
    for (const [kind, hostile] of Object.entries(HOSTILE)) {
      writeFileSync(
        join(world.hooks, `hostile-${kind}.yaml`),
        `id: hostile-${kind}\nevents: [load.${kind}]\nlimits: ${hostile.limits}\nhandler: { code: ${JSON.stringify(hostile.code)} }\n`,
      );
    }
    daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "2"]);
  });
  afterAll(async () => {
    agent.destroy();
    await daemon?.stop("SIGKILL");
    if (FULL && report.length > 0) writeSection("load", report.join("\n"));
    world?.cleanup();
  });

  it("every event is answered, none with a 5xx; every 200 is audited and correct; a SIGSTOPped worker is replaced", async () => {
    const daemonPid = daemon.child.pid as number;
    let stopped: number | undefined;
    const started = performance.now();
    const outcomes = await drive(world.socket, 0, EVENTS, (acknowledged) => {
      if (stopped === undefined && acknowledged >= EVENTS * 0.3) {
        stopped = childWorkers(daemonPid)[0];
        if (stopped !== undefined) process.kill(stopped, "SIGSTOP");
      }
    });
    const elapsedMs = performance.now() - started;

    const by = (status: Outcome["status"]): Outcome[] => outcomes.filter((o) => o.status === status);
    const serverErrors = outcomes.filter((o) => typeof o.status === "number" && o.status >= 500);
    expect(outcomes).toHaveLength(EVENTS);
    expect(serverErrors.map((o) => o.problem)).toEqual([]);
    expect(by("hang")).toEqual([]);
    expect(by("error").map((o) => o.problem)).toEqual([]);
    expect(
      outcomes
        .filter((o) => o.problem)
        .map((o) => o.problem)
        .slice(0, 10),
    ).toEqual([]);
    expect(outcomes.filter((o) => o.stopped).length, "runs that timed out on the stopped worker").toBeLessThanOrEqual(1);

    const audited = auditedEventIds(world);
    expect(audited.unparsable).toBe(0);
    const missing = by(200).filter((o) => !audited.ids.has(o.eventId as string));
    expect(missing).toHaveLength(0);

    // The stopped worker was killed by the pool when an invocation on it overran, and replaced.
    expect(stopped, "a worker to stop").toBeDefined();
    let live = childWorkers(daemonPid);
    for (let i = 0; i < 100 && (live.includes(stopped as number) || live.length < 2); i++) {
      await new Promise((r) => setTimeout(r, 100));
      live = childWorkers(daemonPid);
    }
    expect(live).not.toContain(stopped);
    expect(live).toHaveLength(2);

    const benign = outcomes.filter((o) => o.kind.startsWith("benign"));
    const hostile = outcomes.filter((o) => !o.kind.startsWith("benign"));
    const b = stats(benign);
    const h = stats(hostile);
    const perKind = Object.keys(HOSTILE)
      .map((kind) => `${kind} ${outcomes.filter((o) => o.kind === kind).length}`)
      .join(", ");
    report.push(
      "## Load: hostile hooks through the daemon (issue 9)",
      "",
      `${machine()} (the load client; the daemon is the Bun-compiled binary). \`npm run test:load\` (test/load/load.test.ts): the daemon with 2 sandbox workers, ${IN_FLIGHT} requests in flight over its unix socket (keep-alive), ${EVENTS} events, ${HOSTILE_SHARE * 100}% of them for hostile hooks (${perKind}), one worker stopped with SIGSTOP after 30% of the events.`,
      "",
      "| | events | p50 | p95 | p99 | max |",
      "|---|---:|---:|---:|---:|---:|",
      `| benign (one or two matching hooks) | ${b.count} | ${ms(b.p50)} | ${ms(b.p95)} | ${ms(b.p99)} | ${ms(b.max)} |`,
      `| hostile (one hook, contained) | ${h.count} | ${ms(h.p50)} | ${ms(h.p95)} | ${ms(h.p99)} | ${ms(h.max)} |`,
      "",
      `Elapsed ${(elapsedMs / 1000).toFixed(1)} s, **${(EVENTS / (elapsedMs / 1000)).toFixed(0)} events/s**. Answers: ${by(200).length} × 200, ${serverErrors.length} × 5xx, ${by("error").length} client errors, ${by("hang").length} hangs; every 200 audited (${audited.lines} records, 0 unparsable); the stopped worker was killed and replaced (${outcomes.filter((o) => o.stopped).length} run timed out on it).`,
    );
  }, 600_000);

  it("kill -9 mid-load: clients see errors, not hangs; after a restart the audit reads cleanly and holds every acknowledged event", async () => {
    const victim = daemon;
    const victimWorkers: number[] = [];
    let killedAt = 0;
    const started = performance.now();
    const outcomes = await drive(world.socket, EVENTS, KILL_PHASE_EVENTS, (acknowledged) => {
      if (killedAt === 0 && acknowledged >= KILL_PHASE_EVENTS * 0.3) {
        killedAt = performance.now() - started;
        victimWorkers.push(...childWorkers(victim.child.pid as number));
        victim.child.kill("SIGKILL");
      }
    });
    await victim.exited;
    // A worker busy in a built-in when its daemon died keeps running (finding F10 in
    // test/security/findings.test.ts): these are ours, so end them rather than leave them spinning.
    await new Promise((r) => setTimeout(r, 1000));
    const orphans = victimWorkers.filter(isRunning);
    for (const pid of orphans) process.kill(pid, "SIGKILL");
    const acknowledged = outcomes.filter((o) => o.status === 200);
    const errors = outcomes.filter((o) => o.status === "error");
    expect(killedAt).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.status === "hang")).toEqual([]);
    expect(errors.length, "the kill really happened mid-load").toBeGreaterThan(0);
    expect(outcomes.filter((o) => typeof o.status === "number" && o.status >= 500).map((o) => o.problem)).toEqual([]);
    expect(acknowledged.filter((o) => o.problem).map((o) => o.problem)).toEqual([]);

    // Before the restart: every acknowledged record is already in the file (written before the answer left).
    const beforeRestart = auditedEventIds(world);
    expect(acknowledged.filter((o) => !beforeRestart.ids.has(o.eventId as string))).toHaveLength(0);

    daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "2"]);
    const afterRestart = auditedEventIds(world);
    expect(afterRestart.unparsable).toBe(0);
    expect(acknowledged.filter((o) => !afterRestart.ids.has(o.eventId as string))).toHaveLength(0);
    const resumed = await drive(world.socket, EVENTS + KILL_PHASE_EVENTS, 200);
    expect(resumed.filter((o) => o.status !== 200 || o.problem)).toEqual([]);
    expect(existsSync(world.socket)).toBe(true);

    report.push(
      "",
      `**kill -9 mid-load**: ${KILL_PHASE_EVENTS} more events, the daemon killed after ${acknowledged.length} were acknowledged (${(killedAt / 1000).toFixed(1)} s in): ${errors.length} requests failed with connection errors, 0 hung, 0 × 5xx; every acknowledged event was in the audit log before the restart, which read cleanly (${afterRestart.lines} records, 0 unparsable); the restarted daemon answered 200 more events correctly. Workers of the killed daemon still running a guest a second later: ${orphans.length} of ${victimWorkers.length} (finding F10; the test killed them).`,
    );
  }, 600_000);
});
