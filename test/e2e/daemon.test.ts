import { execFile } from "node:child_process";
import { readFileSync, statSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../helpers/binary.ts";
import { call, DaemonProcess, DaemonWorld, ROOT } from "../helpers/daemon.ts";

const run = promisify(execFile);

const GUARD = `id: guard
events: [PreToolUse]
priority: 10
match: { tool: "Write|Edit", paths: ["**/.env", "**/.env.*"] }
handler: { code: "export default (e) => ({ action: 'deny', reason: 'writing ' + e.tool_input.file_path + ' is not allowed' })" }
`;
const RECORDER = `id: recorder
events: [PreToolUse, UserPromptSubmit]
priority: 20
handler: { code: "export default (e) => ({ reason: 'seen ' + (e.tool_name ?? 'prompt') })" }
`;
const ASKER = `id: asker
events: [PreToolUse]
priority: 5
match: { tool: Deploy }
approval: { timeout_ms: 1500, default: deny }
handler: { code: "export default (e) => ({ action: 'ask_user', approval_prompt: 'Deploy to ' + e.tool_input.target + '?' })" }
`;

const writeEvent = (path: string) => ({ session_id: "s1", cwd: "/proj", tool_name: "Write", tool_input: { file_path: path, content: "x" } });

describe("hookbox serve (the binary, over a real unix socket)", () => {
  let world: DaemonWorld;
  let daemon: DaemonProcess;
  beforeAll(async () => {
    world = new DaemonWorld();
    writeFileSync(join(world.hooks, "guard.yaml"), GUARD);
    writeFileSync(join(world.hooks, "recorder.yaml"), RECORDER);
    writeFileSync(join(world.hooks, "asker.yaml"), ASKER);
    daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "2"]);
  });
  afterAll(async () => {
    await daemon?.stop("SIGKILL");
    world.cleanup();
  });

  it("answers events with decisions; the socket is 0600 in a 0700 directory", async () => {
    const denied = await call(world.socket, "POST", "/v1/events/PreToolUse", writeEvent("/proj/.env"));
    expect(denied.status).toBe(200);
    expect(denied.json).toMatchObject({
      v: 1,
      decision: "deny",
      decided_by: "guard",
      reason: "writing /proj/.env is not allowed",
      runs: [
        { hook_id: "self-protect", status: "completed" },
        { hook_id: "guard", status: "denied" },
        { hook_id: "recorder", status: "skipped" },
      ],
    });
    const allowed = await call(world.socket, "POST", "/v1/events/PreToolUse", writeEvent("/proj/src/app.ts"));
    // self-protect (on by default) runs first on every PreToolUse.
    expect(allowed.json).toMatchObject({
      decision: "allow",
      runs: [
        { hook_id: "self-protect", status: "completed" },
        { hook_id: "recorder", status: "completed", reason: "seen Write" },
      ],
    });
    expect(statSync(world.socket).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(world.socket)).mode & 0o777).toBe(0o700);
  });

  it("a second serve on the same socket refuses to start", async () => {
    const second = await run(BUILT_BINARY, ["serve", "--hooks", world.hooks], { env: world.env(), cwd: world.dir }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect((second as { code: number }).code).not.toBe(0);
    expect((second as { stderr: string }).stderr).toMatch(/another Hookbox daemon is already serving on/);
  });

  it("413 for a body over the limit, 400 naming the problem for bad JSON and bad fields", async () => {
    const big = await call(world.socket, "POST", "/v1/events/PreToolUse", JSON.stringify({ ...writeEvent("a"), pad: "x".repeat(1_100_000) }));
    expect(big.status).toBe(413);
    expect(big.json).toMatchObject({ error: { code: "request_too_large" } });
    const notJson = await call(world.socket, "POST", "/v1/events/PreToolUse", "{not json");
    expect(notJson.status).toBe(400);
    expect(notJson.json).toMatchObject({ error: { code: "event_invalid", message: expect.stringMatching(/not valid JSON/) } });
    const badField = await call(world.socket, "POST", "/v1/events/PreToolUse", { ...writeEvent("a"), tool_input: "oops" });
    expect(badField.status).toBe(400);
    expect(badField.json).toMatchObject({
      error: { code: "event_invalid", message: expect.stringMatching(/^tool_input: /), details: { field: "tool_input" } },
    });
    const badEvent = await call(world.socket, "POST", "/v1/events/PreTolUse", writeEvent("a"));
    expect(badEvent.json).toMatchObject({ error: { code: "event_invalid", message: expect.stringMatching(/did you mean "PreToolUse"/) } });
    const unknown = await call(world.socket, "GET", "/v2/nothing");
    expect(unknown.status).toBe(404);
  });

  it("1,000 malformed requests later the daemon still answers correctly", async () => {
    const malformed = [
      () => call(world.socket, "POST", "/v1/events/PreToolUse", "{"),
      () => call(world.socket, "POST", "/v1/events/PreToolUse", "[]"),
      () => call(world.socket, "POST", "/v1/events/PreToolUse", "null"),
      () => call(world.socket, "POST", "/v1/events/%00bad", "{}"),
      () => call(world.socket, "POST", "/v1/events/PreToolUse", JSON.stringify({ tool_input: { a: 1 }, cwd: "relative/path" })),
      () => call(world.socket, "POST", "/v1/events/PreToolUse", "\u0000\u0001\u0002"),
      () => call(world.socket, "POST", "/v1/events/PreToolUse", "[".repeat(5000)),
      () => call(world.socket, "POST", "/v1/approvals/nope", "{}"),
    ];
    for (let i = 0; i < 1000; i += 25) {
      const replies = await Promise.all(
        Array.from({ length: 25 }, (_, j) => (malformed[(i + j) % malformed.length] as () => Promise<{ status: number }>)()),
      );
      for (const reply of replies) expect(reply.status).toBeGreaterThanOrEqual(400);
      for (const reply of replies) expect(reply.status).toBeLessThan(500);
    }
    const after = await call(world.socket, "POST", "/v1/events/PreToolUse", writeEvent("/proj/.env.local"));
    expect(after.json).toMatchObject({ decision: "deny", decided_by: "guard" });
  });

  it("the Claude http route answers in Claude's form: a deny is permissionDecision deny with the reason", async () => {
    const claudePayload = {
      session_id: "c1",
      transcript_path: "/tmp/t.jsonl",
      cwd: "/proj",
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      tool_input: { file_path: "/proj/.env", content: "k=v" },
      tool_use_id: "toolu_1",
    };
    const denied = await call(world.socket, "POST", "/v1/agents/claude", claudePayload);
    expect(denied.status).toBe(200);
    expect(denied.json).toMatchObject({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "writing /proj/.env is not allowed" },
    });
    const allowed = await call(world.socket, "POST", "/v1/agents/claude", {
      ...claudePayload,
      tool_input: { file_path: "/proj/ok.ts", content: "" },
    });
    expect(allowed.status).toBe(200);
    expect((allowed.json as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision).not.toBe("deny");
  });

  it("lists hooks, fires one manually, and serves runs, health and metrics", async () => {
    const hooks = await call(world.socket, "GET", "/v1/hooks");
    expect(Object.keys((hooks.json as { hooks: object }).hooks).sort()).toEqual(["PreToolUse", "UserPromptSubmit"]);
    expect((await call(world.socket, "GET", "/v1/hooks/recorder")).json).toMatchObject({ id: "recorder", priority: 20 });
    expect((await call(world.socket, "GET", "/v1/hooks/nope")).status).toBe(404);
    const fired = await call(world.socket, "POST", "/v1/hooks/recorder/fire", { event_type: "UserPromptSubmit", prompt: "hi" });
    expect(fired.json).toMatchObject({ decision: "allow", runs: [{ hook_id: "recorder", status: "completed" }] });
    const runs = await call(world.socket, "GET", "/v1/runs?hook=guard&status=denied&limit=2");
    expect((runs.json as { runs: { hook_id: string; status: string }[] }).runs.length).toBe(2);
    for (const record of (runs.json as { runs: { hook_id: string; status: string }[] }).runs)
      expect(record).toMatchObject({ hook_id: "guard", status: "denied" });
    expect((await call(world.socket, "GET", "/v1/runs?limit=zero")).status).toBe(400);
    const health = await call(world.socket, "GET", "/healthz");
    expect(health.json).toMatchObject({
      status: "ok",
      checks: { sandbox: { ok: true }, hooks: { ok: true, detail: [{ hooks: 4, broken: [] }] }, audit: { ok: true } },
    });
    const metrics = await call(world.socket, "GET", "/metrics");
    expect(metrics.text).toMatch(/^hookbox_events_total\{event_type="PreToolUse",decision="deny"\} \d+/m);
    for (const name of [
      "hookbox_runs_total",
      "hookbox_run_duration_seconds_bucket",
      "hookbox_sandbox_kills_total",
      "hookbox_capability_denials_total",
      "hookbox_audit_dropped_total",
    ])
      expect(metrics.text).toContain(name);
  });

  it("ask_user: a pending approval, approved with the CLI, lets the waiting request through; an unanswered one times out to deny", async () => {
    const deployEvent = (target: string) => ({ session_id: "ask-1", cwd: "/proj", tool_name: "Deploy", tool_input: { target } });
    const waiting = call(world.socket, "POST", "/v1/events/PreToolUse", deployEvent("staging"));
    let pending: { id: string; prompt: string }[] = [];
    for (let i = 0; i < 50 && pending.length === 0; i++) {
      pending = ((await call(world.socket, "GET", "/v1/approvals")).json as { approvals: { id: string; prompt: string }[] }).approvals;
      if (pending.length === 0) await new Promise((r) => setTimeout(r, 20));
    }
    expect(pending).toHaveLength(1);
    expect(pending[0]?.prompt).toBe("Deploy to staging?");
    const listed = await run(BUILT_BINARY, ["approvals", "--socket", world.socket], { env: world.env() });
    expect(listed.stdout).toContain(pending[0]?.id);
    // A unique prefix of the id is enough (the asker gives up after 1.5 s: the prefix is tried first).
    const approved = await run(BUILT_BINARY, ["approve", (pending[0]?.id as string).slice(0, 6), "--socket", world.socket], { env: world.env() });
    expect(approved.stdout).toBe(`${pending[0]?.id}: allow\n`);
    expect((await waiting).json).toMatchObject({ decision: "allow", reason: "approved by the user (hookbox approve)" });
    const gone = await run(BUILT_BINARY, ["approve", (pending[0]?.id as string).slice(0, 6), "--socket", world.socket], { env: world.env() }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(gone).toMatchObject({
      code: 1,
      stderr: `error[not_found]: no pending approval is ${(pending[0]?.id as string).slice(0, 6)} or starts with it: none is waiting (answered, or timed out)\n`,
    });
    // The audit says who answered and how.
    const decisions = readFileSync(world.auditFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { kind?: string; approval?: unknown });
    expect(decisions.filter((d) => d.kind === "decision" && d.approval).at(-1)?.approval).toEqual({
      id: pending[0]?.id,
      hook_id: "asker",
      decision: "allow",
      by: "user",
      via: "cli",
    });

    const started = Date.now();
    const timedOut = await call(world.socket, "POST", "/v1/events/PreToolUse", deployEvent("production"));
    expect(timedOut.json).toMatchObject({
      decision: "deny",
      reason: expect.stringMatching(/Deploy to production\? — approval timed out after 1500 ms; default: deny/),
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
  });

  it("approve --always allows the same hook and tool for the rest of the session", async () => {
    const event = { session_id: "always-1", cwd: "/proj", tool_name: "Deploy", tool_input: { target: "qa" } };
    const first = call(world.socket, "POST", "/v1/events/PreToolUse", event);
    let id: string | undefined;
    for (let i = 0; i < 50 && !id; i++) {
      id = ((await call(world.socket, "GET", "/v1/approvals")).json as { approvals: { id: string }[] }).approvals[0]?.id;
      if (!id) await new Promise((r) => setTimeout(r, 20));
    }
    await run(BUILT_BINARY, ["approve", id as string, "--always", "--socket", world.socket], { env: world.env() });
    expect((await first).json).toMatchObject({ decision: "allow" });
    expect((await call(world.socket, "POST", "/v1/events/PreToolUse", event)).json).toMatchObject({
      decision: "allow",
      reason: "allowed always for this session",
    });
    expect((await call(world.socket, "POST", "/v1/events/PreToolUse", { ...event, session_id: "other" }, {}, 10_000)).json).toMatchObject({
      decision: "deny",
    });
  });

  it("hookbox runs reads the audit log", async () => {
    const { stdout } = await run(BUILT_BINARY, ["runs", "--hook", "guard", "--limit", "1", "--json"], { env: world.env() });
    expect(JSON.parse(stdout.trim())).toMatchObject({ v: 1, hook_id: "guard", status: "denied", event_type: "PreToolUse" });
  });
});

describe("daemon lifecycle", () => {
  it("SIGTERM: in-flight finishes, the socket is removed, exit 0; after kill -9 a new serve replaces the stale socket", async () => {
    const world = new DaemonWorld();
    writeFileSync(join(world.hooks, "guard.yaml"), GUARD);
    try {
      const first = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "1"]);
      expect(await first.stop("SIGTERM")).toEqual({ code: 0, signal: null });
      expect(existsSync(world.socket)).toBe(false);
      expect(first.stderr).toContain("stopped");

      const killed = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "1"]);
      await killed.stop("SIGKILL");
      expect(existsSync(world.socket)).toBe(true); // stale
      const replacement = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "1"]);
      expect((await call(world.socket, "POST", "/v1/events/PreToolUse", writeEvent("/proj/.env"))).json).toMatchObject({ decision: "deny" });
      await replacement.stop();
    } finally {
      world.cleanup();
    }
  });

  it("kill -9 during a 5,000-event load: every event that got a 200 is in the audit log, and every line parses", async () => {
    const world = new DaemonWorld();
    writeFileSync(join(world.hooks, "recorder.yaml"), RECORDER);
    try {
      const daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "2"]);
      const acknowledged: string[] = [];
      let errors = 0;
      let sent = 0;
      const worker = async (): Promise<void> => {
        while (sent < 5000) {
          sent++;
          try {
            const reply = await call(world.socket, "POST", "/v1/events/PreToolUse", writeEvent(`/proj/f${sent}.ts`), {}, 5000);
            if (reply.status === 200) acknowledged.push((reply.json as { event_id: string }).event_id);
            else errors++;
          } catch {
            errors++;
          }
        }
      };
      const killer = (async () => {
        while (acknowledged.length < 1500) await new Promise((r) => setTimeout(r, 5));
        await daemon.stop("SIGKILL");
      })();
      await Promise.all([...Array.from({ length: 32 }, worker), killer]);
      expect(acknowledged.length).toBeGreaterThanOrEqual(1500);
      expect(errors).toBeGreaterThan(0); // the kill really happened mid-load: later requests failed, not hung
      const lines = readFileSync(world.auditFile, "utf8").split("\n").filter(Boolean);
      const audited = new Set(lines.map((line) => (JSON.parse(line) as { event_id: string }).event_id));
      const missing = acknowledged.filter((id) => !audited.has(id));
      expect(missing).toEqual([]);
    } finally {
      world.cleanup();
    }
  });
});

describe("--listen: loopback TCP for clients without unix sockets", () => {
  it("requires the bearer token from the 0600 token file, and serves Claude's http hook there", async () => {
    const world = new DaemonWorld();
    writeFileSync(join(world.hooks, "guard.yaml"), GUARD);
    try {
      const daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "1", "--listen", "127.0.0.1:0"]);
      const port = Number(/http:\/\/127\.0\.0\.1:(\d+)/.exec(daemon.stderr)?.[1]);
      const tokenFile = join(world.home, ".local/share/hookbox/http-token");
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      const token = readFileSync(tokenFile, "utf8").trim();
      const payload = {
        session_id: "h1",
        cwd: "/proj",
        hook_event_name: "PreToolUse",
        tool_name: "Edit",
        tool_input: { file_path: "/proj/.env", old_string: "a", new_string: "b" },
      };
      expect((await call({ port }, "POST", "/v1/agents/claude", payload)).status).toBe(401);
      expect((await call({ port }, "POST", "/v1/agents/claude", payload, { authorization: "Bearer wrong-token-wrong-token" })).status).toBe(401);
      const reply = await call({ port }, "POST", "/v1/agents/claude", payload, { authorization: `Bearer ${token}` });
      expect(reply.json).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
      await daemon.stop();
    } finally {
      world.cleanup();
    }
  });

  it("refuses a non-loopback address", async () => {
    const world = new DaemonWorld();
    try {
      const result = await run(BUILT_BINARY, ["serve", "--hooks", world.hooks, "--listen", "0.0.0.0:8787"], { env: world.env() }).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect((result as { code: number }).code).toBe(2);
      expect((result as { stderr: string }).stderr).toMatch(/--listen must be a loopback address/);
    } finally {
      world.cleanup();
    }
  });
});

describe("the same app on the Node and Deno adapters", () => {
  for (const [name, command] of [
    ["node", [process.execPath, "--import", createRequire(import.meta.url).resolve("tsx"), join(ROOT, "src/main.ts")]],
    ["deno", [join(ROOT, "node_modules/.bin/deno"), "run", "-A", join(ROOT, "src/main.ts")]],
  ] as const) {
    it(`${name}: serves an event over the unix socket and stops cleanly`, async () => {
      const world = new DaemonWorld();
      writeFileSync(join(world.hooks, "guard.yaml"), GUARD);
      try {
        const daemon = await DaemonProcess.start(command, world, ["--workers", "1"], { NODE_PATH: join(ROOT, "node_modules") });
        expect((await call(world.socket, "POST", "/v1/events/PreToolUse", writeEvent("/proj/.env"))).json).toMatchObject({
          decision: "deny",
          decided_by: "guard",
        });
        expect((await call(world.socket, "GET", "/healthz")).json).toMatchObject({ status: "ok" });
        expect(statSync(world.socket).mode & 0o777).toBe(0o600);
        expect((await daemon.stop("SIGTERM")).code).toBe(0);
        expect(existsSync(world.socket)).toBe(false);
      } finally {
        world.cleanup();
      }
    });
  }
});

describe("hookbox serve --builtin all on a fresh account (the README's quick start)", () => {
  it("starts quietly: no warning about prompt hooks nobody set up, no chain line for a log with nothing in it", async () => {
    const world = new DaemonWorld();
    try {
      const daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--builtin", "all"], {}, { defaultHooks: true });
      const answer = await call(world.socket, "POST", "/v1/agents/claude", {
        hook_event_name: "PreToolUse",
        session_id: "s1",
        cwd: world.dir,
        tool_name: "Write",
        tool_input: { file_path: join(world.dir, ".env"), content: "A=1" },
      });
      expect((answer.json as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision).toBe("deny");
      expect((await daemon.stop()).code).toBe(0);
      const lines = daemon.stderr.trim().split("\n");
      expect(lines, daemon.stderr).toEqual([
        expect.stringMatching(/^hookbox: serving \d+ hooks plus each project's \.hookbox\/hooks on unix:/),
        "hookbox: stopped",
      ]);
    } finally {
      world.cleanup();
    }
  });
});
