// Issue 16: the audit log is tamper-evident. Records come from a daemon and from `emit` in its own
// process (the built binary), several at once; `hookbox audit verify` must pass on what they
// wrote and fail, naming the place, on every kind of edit.
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram, type RunResult } from "../helpers/binary.ts";
import { call, DaemonProcess, DaemonWorld, ROOT } from "../helpers/daemon.ts";

const RECORDER = `id: recorder
events: [PreToolUse]
handler: { code: "export default (e) => ({ reason: 'seen ' + e.tool_input.command })" }
`;
/** Per Bash PreToolUse: the decision record, the recorder's run record and self-protect's (on by default). */
const RECORDS_PER_EVENT = 3;
const claudePayload = (world: DaemonWorld, command: string): string => {
  const payload = JSON.parse(readFileSync(join(ROOT, "test/fixtures/agents/claude-code/PreToolUse-5.json"), "utf8")) as Record<string, unknown>;
  return JSON.stringify({ ...payload, cwd: world.dir, tool_name: "Bash", tool_input: { command } });
};

interface Report {
  ok: boolean;
  records: number;
  files: { name: string; lines: number }[];
  head: { hash: string; file: string; line: number };
  problems: { kind: string; file: string; line: number; message: string; previous?: { line: number }; linksTo?: { line: number } }[];
  restarts: { file: string; line: number }[];
  anchor?: { found?: unknown };
}

function emit(world: DaemonWorld, command: string, daemon: boolean): Promise<RunResult> {
  return runProgram([BUILT_BINARY, "emit", "PreToolUse", "--agent", "claude", "--hooks", world.hooks, ...(daemon ? [] : ["--no-daemon"])], {
    stdin: claudePayload(world, command),
    env: world.env(),
    cwd: world.dir,
  });
}

async function verify(world: DaemonWorld, args: readonly string[] = []): Promise<{ result: RunResult; report: Report }> {
  const result = await runProgram([BUILT_BINARY, "audit", "verify", "--json", ...args], { env: world.env(), cwd: world.dir });
  return { result, report: JSON.parse(result.stdout) as Report };
}

describe("hookbox audit verify (the binary, on records written by a daemon and by emit)", () => {
  let world: DaemonWorld;
  let daemon: DaemonProcess;
  beforeAll(async () => {
    world = new DaemonWorld();
    writeFileSync(join(world.hooks, "recorder.yaml"), RECORDER);
    daemon = await DaemonProcess.start([BUILT_BINARY], world);
    for (let i = 0; i < 3; i++) {
      expect((await emit(world, `through-daemon-${i}`, true)).code).toBe(0);
      expect((await emit(world, `own-process-${i}`, false)).code).toBe(0);
      expect(
        (
          await call(world.socket, "POST", "/v1/events/PreToolUse", {
            session_id: "s",
            cwd: world.dir,
            tool_name: "Bash",
            tool_input: { command: `native-${i}` },
          })
        ).status,
      ).toBe(200);
    }
  });
  afterAll(async () => {
    await daemon?.stop("SIGKILL");
    world?.cleanup();
  });

  it("passes on what they wrote, and prints the head to keep", async () => {
    const { result, report } = await verify(world);
    expect(result.code).toBe(0);
    // Nine events.
    const records = 9 * RECORDS_PER_EVENT;
    expect(report).toMatchObject({ ok: true, records, problems: [], head: { file: "hookbox-audit.jsonl", line: records } });
    const text = await runProgram([BUILT_BINARY, "audit", "verify"], { env: world.env(), cwd: world.dir });
    expect(text.stdout).toMatch(new RegExp(`^OK: ${records} chained records verified, ${records - 1} links back to the first record ever$`, "m"));
    expect(text.stdout).toContain(`--anchor ${report.head.hash}`);
    // The daemon wrote the last line: its /healthz shows the same head.
    const health = (await call(world.socket, "GET", "/healthz")).json as { checks: { audit: { ok: boolean; detail: { chain: { head: string } } } } };
    expect(health.checks.audit.ok).toBe(true);
    expect(health.checks.audit.detail.chain.head).toBe(report.head.hash);
  });

  /** A copy of the log in a data dir of its own, tampered with by `change`, verified there. */
  async function tampered(
    name: string,
    change: (lines: string[]) => string[] | string,
    args: readonly string[] = [],
  ): Promise<{ result: RunResult; report: Report }> {
    const dataDir = join(world.dir, `case-${name}`);
    mkdirSync(join(dataDir, "audit"), { recursive: true });
    cpSync(world.auditFile, join(dataDir, "audit", "hookbox-audit.jsonl"));
    const file = join(dataDir, "audit", "hookbox-audit.jsonl");
    const changed = change(readFileSync(file, "utf8").split("\n").slice(0, -1));
    writeFileSync(file, typeof changed === "string" ? changed : `${changed.join("\n")}\n`);
    return verify(world, ["--data-dir", dataDir, ...args]);
  }

  it("fails at the record whose reason was edited, naming that line", async () => {
    // A run record in the middle of the log (its reason is the hook's "seen …").
    const edited =
      readFileSync(world.auditFile, "utf8")
        .split("\n")
        .findIndex((l, i) => i >= 6 && l.includes('"reason":"seen ')) + 1;
    expect(edited).toBeGreaterThan(6);
    const { result, report } = await tampered("edit", (lines) =>
      lines.map((l, i) => (i === edited - 1 ? l.replace(/"reason":"seen [^"]*"/, '"reason":"seen nothing"') : l)),
    );
    expect(result.code).toBe(1);
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatchObject({ kind: "broken_link", line: edited + 1, previous: { line: edited } });
    expect(report.problems[0]?.message).toMatch(new RegExp(`line ${edited} was changed after it was written`));
  });

  it("fails where a line was deleted", async () => {
    const { result, report } = await tampered("delete", (lines) => lines.filter((_, i) => i !== 9));
    expect(result.code).toBe(1);
    expect(report.problems).toMatchObject([{ kind: "broken_link", line: 10, previous: { line: 9 } }]);
  });

  it("fails where two lines were swapped, and says they were moved", async () => {
    const { result, report } = await tampered("reorder", (lines) => {
      [lines[4], lines[5]] = [lines[5] as string, lines[4] as string];
      return lines;
    });
    expect(result.code).toBe(1);
    expect(report.problems[0]).toMatchObject({ kind: "broken_link", line: 5 });
    expect(report.problems.some((p) => /moved or reordered/.test(p.message))).toBe(true);
  });

  it("fails on a truncated tail, and on a cut at a line boundary when given the head kept earlier", async () => {
    const torn = await tampered("torn", (lines) => `${lines.join("\n")}\n`.slice(0, -20));
    expect(torn.result.code).toBe(1);
    expect(torn.report.problems).toMatchObject([{ kind: "torn_tail", line: 9 * RECORDS_PER_EVENT }]);
    const head = (await verify(world)).report.head.hash;
    const cut = await tampered("cut", (lines) => lines.slice(0, -2), ["--anchor", head]);
    expect(cut.result.code).toBe(1);
    expect(cut.report.problems).toEqual([]);
    expect(cut.report.anchor).toEqual({ hash: head });
    // The same anchor on the untouched log holds.
    expect((await verify(world, ["--anchor", head])).result.code).toBe(0);
  });

  it("fails on a line that is not JSON", async () => {
    const { result, report } = await tampered("junk", (lines) => [...lines.slice(0, 3), "rm -rf / # nothing to see", ...lines.slice(3)]);
    expect(result.code).toBe(1);
    expect(report.problems.map((p) => [p.kind, p.line])).toEqual([
      ["not_json", 4],
      ["broken_link", 5],
    ]);
  });
});

describe("concurrent writers and a broken tail at start (the binary)", () => {
  let world: DaemonWorld;
  let daemon: DaemonProcess;
  const config = (w: DaemonWorld): string => join(w.dir, "operator.yaml");
  beforeAll(async () => {
    world = new DaemonWorld();
    writeFileSync(join(world.hooks, "recorder.yaml"), RECORDER);
    // 1 MiB files: the daemon rotates while emits append.
    writeFileSync(config(world), "audit: { max_file_mb: 1, keep_files: 20 }\n");
    daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--config", config(world)]);
  });
  afterAll(async () => {
    await daemon?.stop("SIGKILL");
    world?.cleanup();
  });

  it("eight emits in their own processes at once, beside a daemon under load, leave a chain that verifies", async () => {
    const big = "x".repeat(2000);
    let native = 0;
    let load = true;
    const lane = async (): Promise<void> => {
      while (load) {
        const reply = await call(world.socket, "POST", "/v1/events/PreToolUse", {
          session_id: "load",
          cwd: world.dir,
          tool_name: "Bash",
          tool_input: { command: `load ${native++} ${big}` },
        });
        expect(reply.status).toBe(200);
      }
    };
    const lanes = Array.from({ length: 8 }, lane);
    const rounds = 4;
    const emits = 8;
    for (let round = 0; round < rounds; round++) {
      const results = await Promise.all(Array.from({ length: emits }, (_, i) => emit(world, `emit ${round}-${i}`, false)));
      for (const r of results) expect(r.code, r.stderr).toBe(0);
    }
    // Enough load for a rotation or two.
    while (native < 700) await new Promise((r) => setTimeout(r, 50));
    load = false;
    await Promise.all(lanes);
    const { result, report } = await verify(world);
    expect(report.problems).toEqual([]);
    expect(result.code).toBe(0);
    expect(report.files.length).toBeGreaterThan(1);
    expect(report.records).toBe(RECORDS_PER_EVENT * (native + rounds * emits));
    expect(readdirSync(join(world.auditFile, "..")).filter((n) => n.includes(".lock"))).toEqual([]);
  });

  it("a daemon that finds the tail broken at start says so, degrades /healthz, marks the break and serves on", async () => {
    await daemon.stop("SIGTERM");
    const text = readFileSync(world.auditFile, "utf8");
    const lines = text.split("\n");
    const at = lines.length - 5;
    lines[at] = (lines[at] as string).replace('"session_id":"load"', '"session_id":"someone else"');
    writeFileSync(world.auditFile, lines.join("\n"));
    daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--config", config(world)]);
    expect(daemon.stderr).toMatch(
      new RegExp(`AUDIT CHAIN BROKEN: hookbox-audit\\.jsonl line ${at + 2} .*line ${at + 1} was changed after it was written`),
    );
    const health = (await call(world.socket, "GET", "/healthz")).json as {
      status: string;
      checks: { audit: { ok: boolean; detail: { chain: { tail: string; broken: { line: number; restartedWith: string } } } } };
    };
    expect(health.status).toBe("degraded");
    expect(health.checks.audit).toMatchObject({ ok: false, detail: { chain: { tail: "broken", broken: { line: at + 2 } } } });
    expect(
      (
        await call(world.socket, "POST", "/v1/events/PreToolUse", {
          session_id: "after",
          cwd: world.dir,
          tool_name: "Bash",
          tool_input: { command: "after" },
        })
      ).status,
    ).toBe(200);
    const { result, report } = await verify(world);
    expect(result.code).toBe(1);
    expect(report.problems).toMatchObject([{ kind: "broken_link", file: "hookbox-audit.jsonl", line: at + 2 }]);
    expect(report.restarts).toHaveLength(1);
    // A restart checks back to that marker only: the break is not reported (or marked) again.
    await daemon.stop("SIGTERM");
    daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--config", config(world)]);
    expect(daemon.stderr).toMatch(/audit chain: the last \d+ links hold/);
    expect((await call(world.socket, "GET", "/healthz")).json).toMatchObject({ checks: { audit: { ok: true } } });
  });
});
