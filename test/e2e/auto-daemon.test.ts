import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it, type TestContext } from "vitest";
import { BUILT_BINARY, runProgram, type RunResult } from "../helpers/binary.ts";
import { call, DaemonWorld } from "../helpers/daemon.ts";

/**
 * `emit` with nobody serving: it answers itself, starts a daemon of its own in the background,
 * and the events after it are answered by that daemon — the binary in a temporary HOME, run the
 * way an agent runs its hook command, with no `hookbox serve` anywhere.
 */
const GUARD = (name: string): string =>
  `id: ${name}\nevents: [PreToolUse]\non_error: deny\nhandler: { code: "export default (e) => /\\\\.env$/.test(e.tool_input?.file_path ?? '') ? { action: 'deny', reason: '${name} guards .env' } : undefined" }\n`;

interface DaemonInfo {
  pid: number;
  origin: string;
  socket: string;
  events: number;
  idle_exit_seconds: number | null;
  retiring: string | null;
  peer_check: string;
  identity: { build: string };
}

interface Status {
  auto_start: { on: boolean; why: string };
  daemons: { socket: string; serves_this_hook_set: boolean; info?: DaemonInfo; problem?: string }[];
}

interface Decision {
  kind?: string;
  session_id: string;
  decision: string;
  project?: string;
  served_by: { via: string; pid: number };
}

class AutoWorld extends DaemonWorld {
  readonly project = join(this.dir, "project");
  readonly log = join(this.home, ".local/share/hookbox/daemon.log");

  constructor(operator = "") {
    super();
    mkdirSync(join(this.project, ".hookbox", "hooks"), { recursive: true });
    writeFileSync(join(this.project, ".hookbox", "hooks", "guard.yaml"), GUARD("project-guard"));
    if (operator) {
      mkdirSync(join(this.home, ".config", "hookbox"), { recursive: true });
      writeFileSync(join(this.home, ".config", "hookbox", "hookbox.yaml"), operator);
    }
  }

  payload(session: string, file: string, cwd = this.project): string {
    return JSON.stringify({
      session_id: session,
      transcript_path: "",
      cwd,
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      tool_input: { file_path: join(cwd, file), content: "x" },
    });
  }

  emit(stdin: string, cwd = this.project, env: Record<string, string> = {}): Promise<RunResult> {
    return runProgram([BUILT_BINARY, "emit", "PreToolUse", "--agent", "claude"], { cwd, env: this.env(env), stdin });
  }

  async status(): Promise<Status> {
    const out = await runProgram([BUILT_BINARY, "daemon", "status", "--json"], { cwd: this.project, env: this.env() });
    expect(out.code, out.stderr).toBe(0);
    return JSON.parse(out.stdout) as Status;
  }

  /** The daemon serving this hook set, once it answers. */
  async serving(timeoutMs = 30_000): Promise<DaemonInfo> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (await this.status()).daemons.find((d) => d.serves_this_hook_set && d.info);
      if (found?.info) return found.info;
      if (Date.now() > deadline) throw new Error(`no daemon came up; its log:\n${this.logText()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  logText(): string {
    return existsSync(this.log) ? readFileSync(this.log, "utf8") : "(no daemon log)";
  }

  decisions(): Decision[] {
    if (!existsSync(this.auditFile)) return [];
    return readFileSync(this.auditFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Decision)
      .filter((entry) => entry.kind === "decision");
  }

  decisionOf(session: string): Decision[] {
    return this.decisions().filter((d) => d.session_id === session);
  }
}

const reason = (out: RunResult): string | undefined =>
  (JSON.parse(out.stdout || "{}") as { hookSpecificOutput?: { permissionDecisionReason?: string } }).hookSpecificOutput?.permissionDecisionReason;

const worlds: AutoWorld[] = [];
const world = (operator = ""): AutoWorld => {
  const created = new AutoWorld(operator);
  worlds.push(created);
  return created;
};

afterEach(async () => {
  for (const w of worlds.splice(0)) {
    // Stopped politely; a daemon whose socket is gone would also stop by itself within 2 s.
    await runProgram([BUILT_BINARY, "daemon", "stop"], { cwd: w.project, env: w.env() }).catch(() => undefined);
    w.cleanup();
  }
});

describe("the daemon emit starts (the binary, a temporary HOME, no hookbox serve)", () => {
  it("the first emit answers itself and starts a daemon; the next is answered by it (its decision record and daemon status say so)", async () => {
    const w = world();
    const first = await w.emit(w.payload("first", ".env"));
    expect(first.code).toBe(0);
    expect(reason(first)).toBe("project-guard guards .env");
    expect(first.stderr).toBe("");
    expect(w.decisionOf("first")).toMatchObject([{ decision: "deny", served_by: { via: "emit" } }]);

    const daemon = await w.serving();
    expect(daemon).toMatchObject({ origin: "auto", peer_check: "uid", idle_exit_seconds: 900 });
    expect(daemon.socket).toMatch(/\/hookbox\/auto-[0-9a-f]{16}\.sock$/);

    const second = await w.emit(w.payload("second", ".env"));
    expect(reason(second)).toBe("project-guard guards .env");
    expect(second.stderr).toBe("");
    expect(w.decisionOf("second")).toMatchObject([{ decision: "deny", project: w.project, served_by: { via: "daemon", pid: daemon.pid } }]);
    const allowed = await w.emit(w.payload("third", "src/a.ts"));
    expect(allowed.stdout).toBe("");
    expect(w.decisionOf("third")).toMatchObject([{ decision: "allow", served_by: { via: "daemon", pid: daemon.pid } }]);
    expect((await w.serving()).events).toBe(2);
    // Its socket and the directory it is in are the owner's alone.
    expect(readFileSync(w.log, "utf8")).toMatch(/serving .* on unix:.*auto-.*\.sock/);
  });

  it("exits after its idle time (daemon.idle_exit_seconds), and the next emit starts another", async () => {
    const w = world("daemon: { idle_exit_seconds: 2 }\n");
    await w.emit(w.payload("a", "src/a.ts"));
    const first = await w.serving();
    expect(first.idle_exit_seconds).toBe(2);
    const deadline = Date.now() + 20_000;
    while ((await w.status()).daemons.some((d) => d.info)) {
      if (Date.now() > deadline) throw new Error(`the daemon did not exit when idle:\n${w.logText()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(w.logText()).toMatch(/stopping: no event for [23] s/);
    expect(existsSync(first.socket)).toBe(false);
    await w.emit(w.payload("b", "src/a.ts"));
    expect((await w.serving()).pid).not.toBe(first.pid);
  });

  it("32 concurrent first emits: every one answered correctly and exactly once, and exactly one daemon started", async () => {
    const w = world();
    const sessions = Array.from({ length: 32 }, (_, i) => `burst-${i}`);
    const outs = await Promise.all(sessions.map((session, i) => w.emit(w.payload(session, i % 2 === 0 ? ".env" : "src/ok.ts"))));
    outs.forEach((out, i) => {
      expect(out.code, out.stderr).toBe(0);
      if (i % 2 === 0) expect(reason(out)).toBe("project-guard guards .env");
      else expect(out.stdout).toBe("");
    });
    for (const [i, session] of sessions.entries())
      expect(w.decisionOf(session), session).toMatchObject([{ decision: i % 2 === 0 ? "deny" : "allow" }]);
    const daemon = await w.serving();
    // Give any second start time to show up in the log before counting.
    await new Promise((r) => setTimeout(r, 1000));
    expect(w.logText().match(/ serving /g)?.length, w.logText()).toBe(1);
    expect(w.logText()).not.toMatch(/already serving/);
    expect((await w.status()).daemons.filter((d) => d.info)).toHaveLength(1);
    expect(daemon.pid).toBeGreaterThan(0);
  });

  it("serves two projects with their own hooks; editing one project's hook reloads that project only", async () => {
    const w = world();
    const beta = join(w.dir, "beta");
    mkdirSync(join(beta, ".hookbox", "hooks"), { recursive: true });
    writeFileSync(join(beta, ".hookbox", "hooks", "guard.yaml"), GUARD("beta-guard"));
    await w.emit(w.payload("warm", "src/a.ts"));
    const daemon = await w.serving();
    expect(reason(await w.emit(w.payload("p1", ".env")))).toBe("project-guard guards .env");
    expect(reason(await w.emit(w.payload("b1", ".env", beta), beta))).toBe("beta-guard guards .env");
    writeFileSync(join(w.project, ".hookbox", "hooks", "guard.yaml"), GUARD("project-guard-v2"));
    expect(reason(await w.emit(w.payload("p2", ".env")))).toBe("project-guard-v2 guards .env");
    expect(reason(await w.emit(w.payload("b2", ".env", beta), beta))).toBe("beta-guard guards .env");
    for (const session of ["p1", "b1", "p2", "b2"]) expect(w.decisionOf(session)).toMatchObject([{ served_by: { via: "daemon", pid: daemon.pid } }]);
    const reloads = w
      .logText()
      .split("\n")
      .filter((line) => line.includes("reloaded"));
    expect(reloads).toHaveLength(1);
    expect(reloads[0]).toContain(`reloaded ${w.project} `);
    expect((await w.serving()).events).toBe(4);
  });

  it("HOOKBOX_NO_DAEMON=1, or daemon.auto_start: false: emit answers itself and starts none", async () => {
    for (const [w, env] of [
      [world(), { HOOKBOX_NO_DAEMON: "1" }],
      [world("daemon: { auto_start: false }\n"), {}],
    ] as const) {
      for (const session of ["one", "two"]) {
        const out = await w.emit(w.payload(session, ".env"), w.project, env);
        expect(reason(out)).toBe("project-guard guards .env");
        expect(w.decisionOf(session)).toMatchObject([{ served_by: { via: "emit" } }]);
      }
      await new Promise((r) => setTimeout(r, 500));
      expect((await w.status()).daemons.filter((d) => d.info)).toEqual([]);
      expect(existsSync(w.log)).toBe(false);
    }
  });

  it("an emit of another build is refused (409) and makes the daemon retire; a status query is not a use", async () => {
    const w = world();
    await w.emit(w.payload("a", "src/a.ts"));
    const daemon = await w.serving();
    const mine = (await call(daemon.socket, "GET", "/v1/daemon")).json as { identity: Record<string, unknown> };
    const newer = Buffer.from(JSON.stringify({ ...mine.identity, build: "9.9.9+newer" })).toString("base64url");
    const refused = await call(daemon.socket, "POST", "/v1/agents/claude", w.payload("b", "src/a.ts"), {
      "x-hookbox-client": "emit",
      "x-hookbox-identity": newer,
    });
    expect(refused.status).toBe(409);
    const after = await w.serving();
    expect(after.retiring).toMatch(/an emit of build 9\.9\.9\+newer asked/);
    expect(after.idle_exit_seconds).toBe(60);
    expect(after.events).toBe(0);
    expect(w.logText()).toMatch(/retiring: an emit of build 9\.9\.9\+newer asked/);
  });

  it("a process of another uid is refused by the peer check, even when the socket's modes would let it in", async (ctx: TestContext) => {
    if (process.platform !== "linux") ctx.skip("peer credentials are read with SO_PEERCRED here; this test runs on Linux");
    if (process.getuid?.() !== 0) ctx.skip("needs root, to run a client as another uid with setpriv (CI runs as root)");
    const setpriv = await runProgram(["setpriv", "--version"], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } }).catch(() => undefined);
    if (!setpriv || setpriv.code !== 0) ctx.skip("setpriv (util-linux) is not installed (.ci/install-tools installs util-linux)");
    const w = world();
    await w.emit(w.payload("a", "src/a.ts"));
    const daemon = await w.serving();
    // Loosen every mode on the way, as a careless --socket in a shared directory would.
    for (let dir = dirname(daemon.socket); dir.startsWith(w.dir); dir = dirname(dir)) chmodSync(dir, 0o755);
    chmodSync(w.dir, 0o755);
    chmodSync(daemon.socket, 0o666);
    const script = `require("http").get({ socketPath: ${JSON.stringify(daemon.socket)}, path: "/v1/daemon" }, (r) => { let t = ""; r.on("data", (c) => (t += c)); r.on("end", () => console.log(r.statusCode + " " + t)); }).on("error", (e) => console.log("error " + e.message));`;
    const out = await runProgram(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, "-e", script], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/tmp" },
    });
    expect(out.stdout).toMatch(/^403 /);
    expect(out.stdout).toMatch(/"code":"peer_refused"/);
    expect(out.stdout).toMatch(/serves uid 0 only; process \d+ \(uid 65534\) may not use it/);
    // The owner still gets in.
    expect((await call(daemon.socket, "GET", "/v1/daemon")).status).toBe(200);
  });
});
