import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram } from "../helpers/binary.ts";
import { call, DaemonWorld } from "../helpers/daemon.ts";

/**
 * The first tool call of a session, as an agent drives the binary: Claude Code's SessionStart
 * emit finds no daemon, answers itself and starts one; that daemon builds the project's hooks
 * before any tool call comes, so the first PreToolUse runs warm. The session holds the daemon
 * until its SessionEnd.
 */
const GUARD = `id: project-guard\nevents: [PreToolUse]\non_error: deny\nhandler: { code: "export default (e) => /\\\\.env$/.test(e.tool_input?.file_path ?? '') ? { action: 'deny', reason: 'no .env' } : undefined" }\n`;

interface RunRecord {
  kind?: string;
  hook_id?: string;
  error_code?: string;
  event_type?: string;
  session_id?: string;
  served_by?: { via: string };
  stats?: { cold_start: boolean };
}

class World extends DaemonWorld {
  readonly project = join(this.dir, "project");
  readonly log = join(this.home, ".local/share/hookbox/daemon.log");

  constructor() {
    super();
    mkdirSync(join(this.project, ".git"), { recursive: true });
    mkdirSync(join(this.project, ".hookbox", "hooks"), { recursive: true });
    writeFileSync(join(this.project, ".hookbox", "hooks", "guard.yaml"), GUARD);
    mkdirSync(join(this.home, ".config", "hookbox"), { recursive: true });
    // Two standard guards besides the project's own: several guests to build.
    writeFileSync(join(this.home, ".config", "hookbox", "hookbox.yaml"), "builtin: [guard-secrets, bash-guard]\n");
  }

  emit(payload: Record<string, unknown>) {
    const body = { session_id: "sess-1", transcript_path: "", cwd: this.project, ...payload };
    return runProgram([BUILT_BINARY, "emit", "--agent", "claude"], { cwd: this.project, env: this.env(), stdin: JSON.stringify(body) });
  }

  logText(): string {
    return existsSync(this.log) ? readFileSync(this.log, "utf8") : "";
  }

  /** The daemon log's lines that match, with when each was written. */
  logged(pattern: RegExp): { at: number; line: string }[] {
    return this.logText()
      .split("\n")
      .filter((line) => pattern.test(line))
      .map((line) => ({ at: Date.parse(line.slice("hookbox: ".length, "hookbox: ".length + 24)), line }));
  }

  emitRaw(stdin: string) {
    return runProgram([BUILT_BINARY, "emit", "--agent", "claude"], { cwd: this.project, env: this.env(), stdin });
  }

  records(): RunRecord[] {
    if (!existsSync(this.auditFile)) return [];
    return readFileSync(this.auditFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as RunRecord);
  }

  async info(): Promise<{ open_sessions?: number; projects: (string | null)[] } | undefined> {
    const out = await runProgram([BUILT_BINARY, "daemon", "status", "--json"], { cwd: this.project, env: this.env() });
    const status = JSON.parse(out.stdout) as {
      daemons: { serves_this_hook_set: boolean; info?: { open_sessions?: number; projects: (string | null)[] } }[];
    };
    return status.daemons.find((d) => d.serves_this_hook_set)?.info;
  }
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, log: () => string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; daemon log:\n${log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const worlds: World[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) {
    await runProgram([BUILT_BINARY, "daemon", "stop"], { cwd: w.project, env: w.env() }).catch(() => undefined);
    w.cleanup();
  }
});

describe("the first tool call of a session (the daemon SessionStart's emit starts warms the project)", () => {
  it("builds the project's hooks before the first PreToolUse, which runs them warm; the session holds the daemon until SessionEnd", async () => {
    const w = new World();
    worlds.push(w);
    const start = await w.emit({ hook_event_name: "SessionStart", source: "startup" });
    expect(start.code, start.stderr).toBe(0);
    // The daemon it started says it built the project's hooks (three guards: the standard two and the project's).
    const warmed = await until(
      "the warm-up",
      () => /warmed (\S+): (\d+) of (\d+) hook guests? built/.exec(w.logText()) ?? undefined,
      () => w.logText(),
    );
    expect(warmed[1]).toBe(w.project);
    expect(Number(warmed[2])).toBeGreaterThanOrEqual(3);
    expect(warmed[2]).toBe(warmed[3]);
    const info = await until(
      "the daemon's status",
      () => w.info(),
      () => w.logText(),
    );
    expect(info.open_sessions).toBe(1);
    expect(info.projects).toContain(w.project);

    const write = { hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { file_path: join(w.project, "src", "a.ts"), content: "x" } };
    const first = await w.emit(write);
    expect(first.code, first.stderr).toBe(0);
    const denied = await w.emit({ ...write, tool_input: { file_path: join(w.project, ".env"), content: "A=1" } });
    expect(denied.stdout).toContain('"permissionDecision":"deny"');
    // The first PreToolUse went through the daemon, and none of its hooks was built by it.
    const runs = w.records().filter((r) => r.kind === "run" && r.event_type === "PreToolUse");
    const firstRuns = runs.slice(0, runs.length / 2);
    expect(firstRuns.map((r) => r.hook_id)).toEqual(expect.arrayContaining(["guard-secrets", "project-guard"]));
    expect(firstRuns.filter((r) => r.stats?.cold_start !== false).map((r) => r.hook_id)).toEqual([]);

    const end = await w.emit({ hook_event_name: "SessionEnd", reason: "exit" });
    expect(end.code, end.stderr).toBe(0);
    expect((await w.info())?.open_sessions).toBe(0);
  });

  it("hookbox serve started in a project builds that project's hooks at start: its first event runs them warm", async () => {
    const w = new World();
    worlds.push(w);
    const child = spawn(BUILT_BINARY, ["serve"], { cwd: w.project, env: w.env(), stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const warmed = await until(
        "the warm-up",
        () => /warmed (\S+): (\d+) of (\d+) hook guests? built/.exec(stderr) ?? undefined,
        () => stderr,
      );
      expect(warmed[1]).toBe(w.project);
      expect(warmed[2]).toBe(warmed[3]);
      const write = {
        session_id: "serve-1",
        transcript_path: "",
        cwd: w.project,
        hook_event_name: "PreToolUse",
        tool_name: "Write",
        tool_input: { file_path: join(w.project, "src", "a.ts"), content: "x" },
      };
      const reply = await call(w.socket, "POST", "/v1/agents/claude", write);
      expect(reply.status, reply.text).toBe(200);
      const runs = w.records().filter((r) => r.kind === "run" && r.session_id === "serve-1");
      expect(runs.map((r) => r.hook_id)).toEqual(expect.arrayContaining(["guard-secrets", "project-guard"]));
      expect(runs.filter((r) => r.stats?.cold_start !== false).map((r) => r.hook_id)).toEqual([]);
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
  });
});

/** A SessionStart hook that runs into its limits (on_error: continue): the event's own evaluation takes seconds. */
const SLOW_HOOK_MS = 4000;
const SLOW = `id: slow-start\nevents: [SessionStart]\non_error: continue\nlimits: { timeout_ms: ${SLOW_HOOK_MS}, cpu_ms: ${SLOW_HOOK_MS} }\nhandler: { code: "export default () => { for (;;) {} }" }\n`;
const SERVING = / serving \d+ hooks?/;

describe("SessionStart's emit starts the daemon as soon as the event's hook set is known, before its own hooks run", () => {
  it("the daemon serves while a SessionStart hook still runs into its limit; one daemon, holding the session", async () => {
    const w = new World();
    worlds.push(w);
    writeFileSync(join(w.project, ".hookbox", "hooks", "slow.yaml"), SLOW);
    const started = Date.now();
    const out = await w.emit({ session_id: "early-1", hook_event_name: "SessionStart", source: "startup" });
    const answeredAt = Date.now();
    expect(out.code, out.stderr).toBe(0);
    // The hook ran into its limit: the answer came after it, and did not wait for the daemon.
    expect(w.records().find((r) => r.hook_id === "slow-start")?.error_code).toMatch(/^sandbox_(cpu|timeout)$/);
    expect(answeredAt - started).toBeGreaterThan(1000);
    const serving = await until(
      "the daemon",
      () => w.logged(SERVING)[0],
      () => w.logText(),
    );
    // Started before the hooks ran, not after the answer: it was serving while the hook still ran.
    expect(serving.at).toBeLessThan(answeredAt);
    await until(
      "the warm-up",
      () => w.logged(/ warmed /)[0],
      () => w.logText(),
    );
    expect((await w.info())?.open_sessions).toBe(1);
    // No second daemon was started after the answer.
    expect(w.logged(SERVING)).toHaveLength(1);
    expect(out.stderr).not.toContain("could not start a daemon");
  }, 120_000);

  it("a SessionStart that cannot be evaluated (its payload is not JSON) still starts the daemon, once", async () => {
    const w = new World();
    worlds.push(w);
    const out = await w.emitRaw(`{"session_id": "early-2", "hook_event_name": "SessionStart", "cwd": ${JSON.stringify(w.project)}`);
    expect(out.stdout + out.stderr).toMatch(/\S/);
    await until(
      "the daemon",
      () => w.logged(SERVING)[0],
      () => w.logText(),
    );
    expect(await w.info()).toBeDefined();
    // Give a second start (after the answer) time to show itself: there is none.
    await new Promise((r) => setTimeout(r, 1000));
    expect(w.logged(SERVING)).toHaveLength(1);
  }, 120_000);
});
