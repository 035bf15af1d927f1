import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram, type RunResult } from "../helpers/binary.ts";
import { DaemonWorld } from "../helpers/daemon.ts";

/** A built-in that never polls QuickJS's interrupt: only a stop from outside ends it (minutes otherwise). */
const WEDGE = "export default () => Array.prototype.indexOf.call({ length: 2 ** 32 - 1 }, 1)";

/**
 * Guest code that QuickJS polls seconds apart (SECURITY.md F6): each call catches a stack
 * overflow, whose backtrace of every frame it builds first, and recurses again.
 */
const CATCH_RECURSE = "function f(d: number): number { try { return f(d + 1); } catch { return f(d + 1); } }\nexport default () => f(0);";

const hook = (id: string, priority: number, code: string, extra = ""): string =>
  `id: ${id}\nevents: [PreToolUse]\npriority: ${priority}\nhandler: { code: ${JSON.stringify(code)} }\n${extra}`;

async function emit(world: DaemonWorld, hooks: string, args: readonly string[] = []): Promise<RunResult> {
  const payload = {
    session_id: "wedge",
    cwd: world.dir,
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(world.dir, "a.txt"), content: "x" },
  };
  // --no-daemon: emit evaluates in-process (and starts no daemon). The wedge would run for
  // minutes: an emit still alive after 30 s has hung (and is killed).
  const out = await runProgram([BUILT_BINARY, "emit", "--agent", "claude", "--hooks", hooks, "--no-daemon", ...args], {
    cwd: world.dir,
    env: world.env(),
    stdin: JSON.stringify(payload),
  });
  if (out.signal) throw new Error(`emit hung and was killed (${out.signal}); stderr: ${out.stderr}`);
  return out;
}

interface Entry {
  kind?: string;
  hook_id: string;
  status: string;
  error_code?: string;
  reason?: string;
  session_id: string;
  duration_ms: number;
  stats?: { cpu_ms: number };
  decision?: string;
  served_by?: { via: string };
}

function auditEntries(world: DaemonWorld): Entry[] {
  if (!existsSync(world.auditFile)) return [];
  return readFileSync(world.auditFile, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** Run records of the hooks under test: each event also has its decision record, and self-protect's run (on by default, first on every PreToolUse). */
function auditRecords(world: DaemonWorld): Entry[] {
  return auditEntries(world).filter((entry) => entry.kind !== "decision" && entry.hook_id !== "self-protect");
}

describe("emit without a daemon: a guest stuck in a built-in (worker thread abandoned, or worker process killed)", () => {
  let world: DaemonWorld;
  let resumes: string;
  let denies: string;
  beforeAll(() => {
    world = new DaemonWorld();
    resumes = join(world.dir, "resumes");
    denies = join(world.dir, "denies");
    mkdirSync(resumes);
    mkdirSync(denies);
    // on_error continue: the chain goes on after the wedged hook, on a fresh worker.
    writeFileSync(join(resumes, "a.yaml"), hook("wedged", 1, WEDGE, "limits: { timeout_ms: 300 }\non_error: continue\n"));
    writeFileSync(join(resumes, "b.yaml"), hook("after", 2, "export default () => ({ action: 'deny', reason: 'the hook after the wedge ran' })"));
    // on_error deny: the wedge itself blocks (fail closed).
    writeFileSync(join(denies, "a.yaml"), hook("wedged-deny", 1, WEDGE, "limits: { timeout_ms: 300 }\non_error: deny\n"));
  });
  afterAll(() => world.cleanup());

  for (const [name, args] of [
    ["--thread-worker", ["--thread-worker"]],
    ["worker process (the default)", []],
  ] as const) {
    it(`${name}: the chain resumes after the timed-out hook; both records are audited; emit ends`, async () => {
      const before = auditRecords(world).length;
      const out = await emit(world, resumes, args);
      expect(out.code).toBe(0);
      expect(JSON.parse(out.stdout)).toMatchObject({
        hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "the hook after the wedge ran" },
      });
      const records = auditRecords(world).slice(before);
      expect(records.map((r) => [r.hook_id, r.status, r.error_code])).toEqual([
        ["wedged", "failed", expect.stringMatching(/^sandbox_(timeout|cpu)$/)],
        ["after", "denied", undefined],
      ]);
    });

    it(`${name}: on_error deny answers deny for the timed-out hook, audited, and emit ends`, async () => {
      const before = auditEntries(world).length;
      const out = await emit(world, denies, args);
      expect(out.code).toBe(0);
      expect(JSON.parse(out.stdout)).toMatchObject({
        hookSpecificOutput: {
          permissionDecision: "deny",
          // The wall clock (300 ms) stops it; on a loaded machine the host's CPU backstop (cpu_ms) can get there first.
          permissionDecisionReason: expect.stringMatching(/wedged-deny.*(300 ms|cpu limit)|300 ms.*wedged-deny|timeout/i),
        },
      });
      const entries = auditEntries(world).slice(before);
      expect(entries.filter((r) => r.kind !== "decision").map((r) => [r.hook_id, r.status, r.error_code])).toEqual([
        ["self-protect", "completed", undefined],
        ["wedged-deny", "failed", expect.stringMatching(/^sandbox_(timeout|cpu)$/)],
      ]);
      expect(entries.filter((r) => r.kind === "decision")).toMatchObject([{ decision: "deny", served_by: { via: "emit" } }]);
    });
  }
});

describe("emit without a daemon: a guest that keeps QuickJS from polling its interrupt ends at cpu_ms by the host's clock", () => {
  let world: DaemonWorld;
  let hooks: string;
  beforeAll(() => {
    world = new DaemonWorld();
    hooks = join(world.dir, "cpu-hooks");
    mkdirSync(hooks);
    // timeout_ms stays at its default (10 s): only the CPU limit can end the run in time.
    writeFileSync(join(hooks, "a.yaml"), hook("catch-recurse", 1, CATCH_RECURSE, "limits: { cpu_ms: 50 }\non_error: continue\n"));
    writeFileSync(join(hooks, "b.yaml"), hook("after", 2, "export default () => ({ action: 'deny', reason: 'the hook after it ran' })"));
  });
  afterAll(() => world.cleanup());

  for (const [name, args] of [
    ["--thread-worker", ["--thread-worker"]],
    ["worker process (the default)", []],
  ] as const) {
    it(`${name}: the run fails sandbox_cpu within 100 ms of CPU past cpu_ms, and the chain resumes after it`, async () => {
      const before = auditRecords(world).length;
      const out = await emit(world, hooks, args);
      expect(out.code).toBe(0);
      expect(JSON.parse(out.stdout)).toMatchObject({
        hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "the hook after it ran" },
      });
      const [cpu, after] = auditRecords(world).slice(before);
      expect([cpu?.hook_id, cpu?.status, cpu?.error_code, after?.hook_id]).toEqual(["catch-recurse", "failed", "sandbox_cpu", "after"]);
      expect(cpu?.reason).toMatch(/^cpu limit 50 ms exceeded/);
      // CPU time, which is what cpu_ms limits (the wall clock also counts the machine's other load).
      const cpuMs = cpu?.stats?.cpu_ms ?? Number.NaN;
      expect(cpuMs, `CPU time accounted to the run (it lasted ${cpu?.duration_ms} ms)`).toBeGreaterThan(0);
      expect(cpuMs, `CPU time accounted to the run (it lasted ${cpu?.duration_ms} ms)`).toBeLessThanOrEqual(50 + 100);
    });
  }
});
