import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../helpers/binary.ts";
import { call, DaemonProcess, DaemonWorld } from "../helpers/daemon.ts";

const FIXTURES = resolve(import.meta.dirname, "../fixtures/agents");
const GUARD = `id: no-echo-redirect
events: [PreToolUse]
match: { tool: Bash, fields: { tool_input.command: "^echo .*>" } }
handler: { code: "export default (e) => ({ action: 'deny', reason: 'redirecting echo is blocked: ' + e.tool_input.command })" }
`;
const CONTEXT = `id: session-context
events: [SessionStart, UserPromptSubmit]
permissions: { inject_context: true }
handler: { code: "export default (e) => ({ context_injection: 'HOOKBOX_CONTEXT for ' + e.event_type })" }
`;

interface Emitted {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function emit(world: DaemonWorld, args: readonly string[], stdin: string, env: Record<string, string> = world.env()): Promise<Emitted> {
  return new Promise((done, reject) => {
    const child = spawn(BUILT_BINARY, ["emit", ...args], { cwd: world.dir, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => done({ code, stdout, stderr }));
    child.stdin.on("error", () => undefined); // a program that exits without reading its input
    child.stdin.end(stdin);
  });
}

/** stdout holds exactly one JSON object, or nothing. */
function expectPure(out: Emitted): Record<string, unknown> | undefined {
  if (out.stdout.trim() === "") return undefined;
  expect(out.stdout.trim().startsWith("{")).toBe(true);
  return JSON.parse(out.stdout) as Record<string, unknown>;
}

const fixture = (agent: string, name: string): string => readFileSync(join(FIXTURES, agent, `${name}.json`), "utf8");

describe("hookbox emit (the binary, as the agents run it)", () => {
  let world: DaemonWorld;
  beforeAll(() => {
    // emit's own evaluation and its reading of a daemon's answers: no daemon of its own in between.
    world = new DaemonWorld().withoutAutoStart();
    writeFileSync(join(world.hooks, "guard.yaml"), GUARD);
    writeFileSync(join(world.hooks, "context.yaml"), CONTEXT);
  });
  afterAll(() => world.cleanup());

  it("without a daemon: a real Claude Code PreToolUse payload is denied in Claude's form", async () => {
    // The captured payload runs `echo hello > out.txt`.
    const out = await emit(world, ["PreToolUse", "--agent", "claude", "--hooks", world.hooks], fixture("claude-code", "PreToolUse-5"));
    expect(out.code).toBe(0);
    expect(expectPure(out)).toMatchObject({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "redirecting echo is blocked: echo hello > out.txt",
      },
    });
  });

  it("auto-detects the dialect, and injects context on SessionStart", async () => {
    const out = await emit(world, ["--hooks", world.hooks], fixture("claude-code", "SessionStart-16"));
    expect(out.code).toBe(0);
    expect(expectPure(out)).toMatchObject({
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: expect.stringContaining("HOOKBOX_CONTEXT for SessionStart") },
    });
  });

  it("an allowed tool gets an answer that does not block", async () => {
    const payload = JSON.parse(fixture("claude-code", "PreToolUse-5")) as Record<string, unknown>;
    const out = await emit(world, ["--hooks", world.hooks], JSON.stringify({ ...payload, tool_input: { command: "ls -la" } }));
    expect(out.code).toBe(0);
    expect(JSON.stringify(expectPure(out) ?? {})).not.toMatch(/deny|block/);
  });

  it("speaks each agent's block rule: Gemini JSON, Codex exit 2 with stderr, Copilot JSON with exit 0", async () => {
    const gemini = await emit(
      world,
      ["--hooks", world.hooks],
      fixture("gemini-cli", "BeforeTool-1").replace(/"command": "[^"]*"/, '"command": "echo hi > x.txt"'),
    );
    expect(gemini.code).toBe(0);
    expect(expectPure(gemini)).toMatchObject({ decision: "block" });

    const codexPayload = {
      session_id: "c",
      turn_id: "t",
      cwd: world.dir,
      hook_event_name: "PreToolUse",
      model: "gpt-5",
      tool_name: "Bash",
      tool_input: { command: "echo hi > x.txt" },
    };
    const codex = await emit(world, ["--agent", "codex", "--hooks", world.hooks], JSON.stringify(codexPayload));
    expect(codex.code).toBe(2);
    expect(codex.stderr).toContain("redirecting echo is blocked");
    expect(codex.stdout).toBe("");

    const copilotPayload = { timestamp: Date.now(), cwd: world.dir, toolName: "bash", toolArgs: JSON.stringify({ command: "echo hi > x.txt" }) };
    const copilot = await emit(world, ["preToolUse", "--agent", "copilot", "--hooks", world.hooks], JSON.stringify(copilotPayload));
    expect(copilot.code).toBe(0);
    expect(expectPure(copilot)).toMatchObject({ permissionDecision: "deny" });
  });

  it("stdout stays pure on every failure path; the rule decides, loudly, and --fail-closed always blocks", async () => {
    // With self-protect off, no hook here is on_error: deny, so an event Hookbox cannot decode
    // goes ahead, said on stderr; with it on (the default) it could have run and is on_error:
    // deny, so the event is blocked. A broken emit command or operator file leaves nothing to
    // trust, so it blocks.
    const off = join(world.dir, "self-protect-off.yaml");
    writeFileSync(off, "hooks:\n  self-protect: { enabled: false }\n");
    for (const [stdin, args, blocks] of [
      ["{not json", ["--agent", "claude", "--config", off], false],
      ["[]", ["--agent", "claude", "--config", off], false],
      ["{not json", ["--agent", "claude"], true],
      ["[]", ["--agent", "claude"], true],
      [fixture("claude-code", "PreToolUse-5"), ["--agent", "claude", "--no-such-flag"], true],
      [fixture("claude-code", "PreToolUse-5"), ["--agent", "claude", "--config", join(world.dir, "missing.yaml")], true],
    ] as const) {
      const open = await emit(world, [...args, "--hooks", world.hooks], stdin);
      const openAnswer = expectPure(open);
      const openBlocked = open.code === 2 || JSON.stringify(openAnswer ?? {}).includes('"deny"');
      expect(openBlocked, `${args.join(" ")}: ${open.stdout} ${open.stderr}`).toBe(blocks);
      expect(JSON.stringify(openAnswer ?? {}) + open.stderr).toMatch(/Hookbox|hookbox/);
      const closed = await emit(world, [...args, "--hooks", world.hooks, "--fail-closed"], stdin);
      const answer = expectPure(closed);
      expect(JSON.stringify(answer ?? {}) + closed.stderr).toMatch(/Hookbox/i);
      expect(closed.code === 2 || JSON.stringify(answer).includes('"deny"') || JSON.stringify(answer).includes('"block"')).toBe(true);
    }
  });

  it("with a daemon serving the same hook set, emit is answered by the daemon (and its decision record says so)", async () => {
    const daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "1"]);
    try {
      const before = (await call(world.socket, "GET", "/metrics")).text;
      const out = await emit(world, ["PreToolUse", "--agent", "claude", "--hooks", world.hooks], fixture("claude-code", "PreToolUse-5"));
      expect(expectPure(out)).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
      expect(out.stderr).toBe("");
      const after = (await call(world.socket, "GET", "/metrics")).text;
      const count = (text: string): number => Number(/hookbox_events_total\{event_type="PreToolUse",decision="deny"\} (\d+)/.exec(text)?.[1] ?? 0);
      expect(count(after)).toBe(count(before) + 1);
      const decisions = readFileSync(world.auditFile, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { kind?: string; served_by?: { via: string } });
      expect(decisions.filter((d) => d.kind === "decision").at(-1)).toMatchObject({ served_by: { via: "daemon" } });

      // Another hook set (here: no --hooks, so the defaults): the daemon is not asked to answer for it.
      const other = await emit(world, ["PreToolUse", "--agent", "claude"], fixture("claude-code", "PreToolUse-5"));
      expect(other.stderr).toMatch(
        /evaluating here, not through the daemon: .*hookbox\.sock: a Hookbox serving another hook set \(.*--hooks directories/,
      );
      expect(count((await call(world.socket, "GET", "/metrics")).text)).toBe(count(after));
    } finally {
      await daemon.stop();
    }
  });

  describe("a stand-in daemon (this test process, not Hookbox) answers whatever it likes: never used, never sent the event", () => {
    const DENY_OUTPUT = {
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "the stand-in says no" },
    };
    const DENY = { v: 1, stdout: JSON.stringify(DENY_OUTPUT), stderr: "", exit_code: 0, event_id: "e" };
    let server: Server | undefined;
    let seen = "";
    const serve = async (answer: (request: string) => string | readonly string[]): Promise<void> => {
      mkdirSync(join(world.runtimeDir, "hookbox"), { recursive: true });
      rmSync(world.socket, { force: true });
      seen = "";
      server = createServer((socket) => {
        let request = "";
        socket.on("data", async (chunk: Buffer) => {
          request += chunk.toString();
          seen = request;
          const end = request.indexOf("\r\n\r\n");
          const length = Number(/content-length: (\d+)/.exec(request)?.[1] ?? 0);
          if (end < 0 || Buffer.byteLength(request) < end + 4 + length) return;
          const pieces = answer(request);
          for (const piece of typeof pieces === "string" ? [pieces] : pieces) {
            socket.write(piece);
            await new Promise((r) => setTimeout(r, 5));
          }
          socket.end();
        });
      });
      await new Promise<void>((resolve) => (server as Server).listen(world.socket, resolve));
    };
    afterEach(async () => {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = undefined;
    });

    const OWN_DENY = {
      hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "redirecting echo is blocked: echo hello > out.txt" },
    };
    const chunked = (): readonly string[] => {
      const body = JSON.stringify(DENY);
      return [
        "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n",
        `${(10).toString(16)}\r\n${body.slice(0, 10)}\r\n`,
        `${Buffer.byteLength(body.slice(10)).toString(16)}\r\n${body.slice(10)}\r\n0\r\n\r\n`,
      ];
    };
    const refusal = JSON.stringify({ v: 1, error: { code: "internal", message: "boom" } });
    for (const [what, answer] of [
      ["the reply emit expects (chunked)", chunked],
      [
        "the reply emit expects (with a length)",
        () => `HTTP/1.1 200 OK\r\ncontent-length: ${Buffer.byteLength(JSON.stringify(DENY))}\r\n\r\n${JSON.stringify(DENY)}`,
      ],
      ["an answer that is not JSON", () => "HTTP/1.1 200 OK\r\ncontent-length: 9\r\n\r\nnot json!"],
      ["a refusal (5xx)", () => `HTTP/1.1 500 Internal Server Error\r\ncontent-length: ${refusal.length}\r\n\r\n${refusal}`],
    ] as const) {
      it(`${what}: emit evaluates the same hook set itself, says why, and sent the stand-in nothing`, async () => {
        await serve(answer);
        const out = await emit(world, ["PreToolUse", "--agent", "claude", "--hooks", world.hooks], fixture("claude-code", "PreToolUse-5"));
        expect(out.code).toBe(0);
        expect(expectPure(out)).toMatchObject(OWN_DENY);
        expect(out.stderr).toMatch(
          /hookbox: evaluating here, not through the daemon: .*hookbox\.sock: not Hookbox: pid \d+ runs .*, not this Hookbox binary/,
        );
        expect(seen, "refused once connected: the event never went out").toBe("");
      });
    }

    it("without $HOME (the full runtime adapter), the same refusal", async () => {
      await serve(() => `HTTP/1.1 200 OK\r\ncontent-length: ${Buffer.byteLength(JSON.stringify(DENY))}\r\n\r\n${JSON.stringify(DENY)}`);
      const { HOME: _home, ...noHome } = world.env();
      // Evaluated here: its state stays in the world, not in the home directory the password database names.
      const env = { ...noHome, XDG_DATA_HOME: join(world.home, ".local/share"), XDG_CONFIG_HOME: join(world.home, ".config") };
      const out = await emit(world, ["PreToolUse", "--agent", "claude", "--hooks", world.hooks], fixture("claude-code", "PreToolUse-5"), env);
      expect(expectPure(out)).toMatchObject(OWN_DENY);
      expect(out.stderr).toMatch(/not through the daemon: .*: not Hookbox/);
      expect(seen).toBe("");
    });

    it("something on the socket that does not speak HTTP is no daemon: emit evaluates the event itself", async () => {
      await serve(() => "SSH-2.0-nonsense\r\n\r\n");
      const out = await emit(world, ["PreToolUse", "--agent", "claude", "--hooks", world.hooks], fixture("claude-code", "PreToolUse-5"));
      expect(expectPure(out)).toMatchObject({
        hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "redirecting echo is blocked: echo hello > out.txt" },
      });
    });

    it("a daemon that breaks off mid-answer: emit evaluates the event itself", async () => {
      await serve(() => 'HTTP/1.1 200 OK\r\ncontent-length: 500\r\n\r\n{"v":1');
      const out = await emit(world, ["PreToolUse", "--agent", "claude", "--hooks", world.hooks], fixture("claude-code", "PreToolUse-5"));
      expect(expectPure(out)).toMatchObject({
        hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "redirecting echo is blocked: echo hello > out.txt" },
      });
    });
  });

  it("a stale socket nobody listens on: emit evaluates the event itself, and says so", async () => {
    mkdirSync(join(world.runtimeDir, "hookbox"), { recursive: true });
    rmSync(world.socket, { force: true });
    // A listener killed with SIGKILL leaves its socket file behind, as a crashed daemon does.
    spawnSync(process.execPath, [
      "-e",
      `require("node:net").createServer().listen(${JSON.stringify(world.socket)}, () => process.kill(process.pid, "SIGKILL"))`,
    ]);
    const out = await emit(world, ["PreToolUse", "--agent", "claude", "--hooks", world.hooks], fixture("claude-code", "PreToolUse-5"));
    expect(expectPure(out)).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    expect(out.stderr).toMatch(/evaluating here, not through the daemon: .*hookbox\.sock: a stale socket: nothing listens on it/);
    rmSync(world.socket, { force: true });
  });
});
