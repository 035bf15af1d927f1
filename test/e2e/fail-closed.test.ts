import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram, type RunResult } from "../helpers/binary.ts";
import { call, DaemonWorld } from "../helpers/daemon.ts";

/**
 * Issue 15's causes, each through `emit` without a daemon, `emit` answered by a daemon, and
 * (where an agent can call it) the daemon's /v1/agents/claude: what the agent sees, and the audit
 * record, for a guard that is `on_error: deny` and one that is `on_error: continue`. One daemon,
 * started in another directory, serves every project.
 */

type OnError = "deny" | "continue";

interface Entry {
  kind?: string;
  hook_id?: string;
  status?: string;
  error_code?: string;
  decision?: string;
  reason?: string;
  project?: string;
  incomplete?: { code: string; cause: string; rule: string };
  served_by?: { via: string };
  hook_set?: { broken: string[]; operator: string };
}

const GUARD_CODE = `export default (e: { tool_input?: { file_path?: string } }) => (/(^|\\/)\\.env$/.test(e.tool_input?.file_path ?? "") ? { action: "deny", reason: "env-guard: .env holds secrets" } : undefined);\n`;

/**
 * These cases are about a project guard's on_error. self-protect, on by default and on_error: deny,
 * could have run for every PreToolUse and would decide each one itself, so the operator file turns
 * it off here; test/e2e/self-protect.test.ts shows the rule with it on.
 */
const SELF_PROTECT_OFF = "hooks:\n  self-protect: { enabled: false }\n";

function operatorFileOf(world: DaemonWorld): string {
  mkdirSync(join(world.home, ".config", "hookbox"), { recursive: true });
  return join(world.home, ".config", "hookbox", "hookbox.yaml");
}

/** A project hook that guards .env, with this on_error; `files` replaces or adds files beside its hook.yaml. */
function guardFiles(onError: OnError, yamlExtra = "", files: Record<string, string> = {}): Record<string, string> {
  return {
    "env-guard/hook.yaml": `id: env-guard\nevents: [PreToolUse]\non_error: ${onError}\nhandler: ./handler.ts\n${yamlExtra}`,
    "env-guard/handler.ts": GUARD_CODE,
    ...files,
  };
}

describe("fail-closed: every cause, through emit and through the daemon", () => {
  let world: DaemonWorld;
  let daemon: ChildProcess;
  let daemonLog = "";
  let counter = 0;

  const project = (hooks: Record<string, string>): string => {
    const dir = join(world.dir, `project-${++counter}`);
    mkdirSync(join(dir, ".git"), { recursive: true });
    mkdirSync(join(dir, "src", "deep"), { recursive: true });
    for (const [path, text] of Object.entries(hooks)) {
      mkdirSync(join(dir, ".hookbox", "hooks", path, ".."), { recursive: true });
      writeFileSync(join(dir, ".hookbox", "hooks", path), text);
    }
    return dir;
  };
  const writeEnv = (dir: string, content = "A=1"): Record<string, unknown> => ({
    session_id: "fc",
    transcript_path: "",
    cwd: join(dir, "src", "deep"),
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(dir, ".env"), content },
  });
  /** emit as Claude Code runs it: from where the agent is (a subdirectory), no daemon unless asked. */
  const emit = (dir: string, payload: string, args: readonly string[] = [], env: Record<string, string> = {}): Promise<RunResult> =>
    runProgram([BUILT_BINARY, "emit", "PreToolUse", "--agent", "claude", ...args], {
      cwd: join(dir, "src", "deep"),
      env: { ...world.env(), ...env },
      stdin: payload,
    });
  const noDaemon = (dir: string, payload: string): Promise<RunResult> => emit(dir, payload, ["--no-daemon"]);
  const entries = (): Entry[] =>
    existsSync(world.auditFile)
      ? readFileSync(world.auditFile, "utf8")
          .trim()
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Entry)
      : [];
  const lastDecision = (from: number): Entry | undefined =>
    entries()
      .slice(from)
      .filter((e) => e.kind === "decision")
      .at(-1);
  const denied = (out: RunResult): boolean => /"permissionDecision":"deny"/.test(out.stdout) || out.code === 2;

  beforeAll(async () => {
    world = new DaemonWorld();
    writeFileSync(operatorFileOf(world), SELF_PROTECT_OFF);
    // The daemon starts in a directory of its own, with no project: it serves every project.
    const elsewhere = join(world.dir, "elsewhere");
    mkdirSync(elsewhere);
    daemon = spawn(BUILT_BINARY, ["serve", "--workers", "1-2"], { cwd: elsewhere, env: world.env(), stdio: ["ignore", "ignore", "pipe"] });
    daemon.stderr?.on("data", (chunk: Buffer) => (daemonLog += chunk.toString()));
    const deadline = Date.now() + 30_000;
    while (
      !(await call(world.socket, "GET", "/healthz").then(
        () => true,
        () => false,
      ))
    ) {
      if (Date.now() > deadline || daemon.exitCode !== null) throw new Error(`serve did not come up: ${daemonLog}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  afterAll(async () => {
    daemon.kill("SIGTERM");
    await new Promise((r) => daemon.once("exit", r));
    world.cleanup();
  });

  /** The same event three ways; each answer is checked with `expectAnswer`, and each has its decision record. */
  async function threeWays(
    dir: string,
    payload: Record<string, unknown>,
    expectAnswer: (out: RunResult, via: string) => void,
    expectRecord: (record: Entry) => void,
  ): Promise<void> {
    const text = JSON.stringify(payload);
    for (const [via, run] of [
      ["emit", () => noDaemon(dir, text)],
      ["daemon", () => emit(dir, text)],
    ] as const) {
      const mark = entries().length;
      const out = await run();
      expectAnswer(out, via);
      const record = lastDecision(mark);
      expect(record, `${via}: a decision record`).toBeDefined();
      expect(record?.served_by?.via).toBe(via === "emit" ? "emit" : "daemon");
      expectRecord(record as Entry);
    }
    const mark = entries().length;
    const http = await call(world.socket, "POST", "/v1/agents/claude", text);
    expect(http.status, "Claude's http hooks read a non-2xx as go ahead: always 200").toBe(200);
    expectAnswer({ code: 0, stdout: http.text === "{}" ? "" : http.text, stderr: "" }, "http");
    expectRecord(lastDecision(mark) as Entry);
  }

  const handlersThatCannotLoad: [string, Record<string, string>, RegExp][] = [
    [
      "a refused import",
      { "env-guard/handler.ts": `import { readFileSync } from "node:fs";\nexport default () => ({ reason: String(readFileSync) });\n` },
      /node:fs/,
    ],
    ["a TypeScript syntax error", { "env-guard/handler.ts": "export default () => { return {\n" }, /handler\.ts:\d+:\d+/],
    ["a missing handler file", { "env-guard/handler.ts": "" }, /cannot read the handler|ENOENT|no such file/i],
    [
      "source nested too deeply to parse",
      { "env-guard/handler.ts": `export default () => ${"(".repeat(100_000)}1${")".repeat(100_000)};\n` },
      /nest|deep|stack|too/i,
    ],
  ];
  for (const [kind, files, problem] of handlersThatCannotLoad) {
    for (const onError of ["deny", "continue"] as const) {
      it(`a handler that cannot load (${kind}), on_error ${onError}`, async () => {
        const hooks = guardFiles(onError, "", files);
        const dir = project(hooks);
        if (files["env-guard/handler.ts"] === "") rmSync(join(dir, ".hookbox", "hooks", "env-guard", "handler.ts"));
        await threeWays(
          dir,
          writeEnv(dir),
          (out, via) => {
            expect(denied(out), `${via}: ${out.stdout} ${out.stderr}`).toBe(onError === "deny");
            // Either way the answer names the broken hook and its problem.
            expect(out.stdout, via).toMatch(/env-guard/);
            expect(out.stdout, via).toMatch(problem);
          },
          (record) => {
            expect(record).toMatchObject({ decision: onError === "deny" ? "deny" : "allow", hook_set: { broken: ["env-guard"] } });
          },
        );
      });
    }
  }

  for (const onError of ["deny", "continue"] as const) {
    it(`a typo in the hook file (evnts:), on_error ${onError}: registered for every event, never for none`, async () => {
      const dir = project({
        "env-guard/hook.yaml": `id: env-guard\nevnts: [PreToolUse]\non_error: ${onError}\nhandler: ./handler.ts\n`,
        "env-guard/handler.ts": GUARD_CODE,
      });
      await threeWays(
        dir,
        writeEnv(dir),
        (out, via) => {
          expect(denied(out), `${via}: ${out.stdout}`).toBe(onError === "deny");
          expect(out.stdout).toMatch(/evnts/);
        },
        (record) => expect(record.hook_set?.broken).toEqual(["env-guard"]),
      );
    });

    it(`an undecodable event (MCP arguments nested past the depth limit), on_error ${onError}`, async () => {
      const dir = project(guardFiles(onError));
      let nested: unknown = "x";
      for (let i = 0; i < 80; i++) nested = { a: nested };
      const payload = { ...writeEnv(dir), tool_name: "mcp__files__write", tool_input: { path: ".env", nested } };
      await threeWays(
        dir,
        payload,
        (out, via) => {
          if (onError === "deny") {
            expect(denied(out), `${via}: ${out.stdout} ${out.stderr}`).toBe(true);
            expect(out.stdout).toMatch(/could not evaluate.*nested deeper than 64.*env-guard.*on_error: deny/);
          } else {
            expect(denied(out), via).toBe(false);
            // Loud: a non-blocking error with the cause (exit 1), or Claude's systemMessage over HTTP.
            expect(`${out.stderr}${out.stdout}`).toMatch(/could not evaluate.*nested deeper than 64.*going ahead/);
          }
        },
        (record) => expect(record).toMatchObject({ decision: onError === "deny" ? "deny" : "allow", incomplete: { code: "event_invalid" } }),
      );
    });

    it(`a payload in no dialect Hookbox can tell (Claude's shape, Gemini's shell tool), without --agent, on_error ${onError}`, async () => {
      const dir = project(guardFiles(onError));
      const text = JSON.stringify({ ...writeEnv(dir), tool_name: "run_shell_command", tool_input: { command: "echo A=1 > .env" } });
      for (const out of [
        await runProgram([BUILT_BINARY, "emit", "--no-daemon"], { cwd: dir, env: world.env(), stdin: text }),
        await runProgram([BUILT_BINARY, "emit"], { cwd: dir, env: world.env(), stdin: text }),
      ]) {
        expect(denied(out), `${out.stdout} ${out.stderr}`).toBe(onError === "deny");
        expect(`${out.stdout}${out.stderr}`).toMatch(/no agent dialect Hookbox can tell/);
      }
    });

    it(`a request over the daemon's body limit (a 1.1 MB Write to .env), on_error ${onError}`, async () => {
      const dir = project(guardFiles(onError));
      const payload = JSON.stringify(writeEnv(dir, "x".repeat(1_100_000)));
      // emit: the daemon refuses the body, so emit evaluates the same hook set itself: the guard runs.
      for (const out of [await noDaemon(dir, payload), await emit(dir, payload)]) {
        expect(denied(out), out.stderr).toBe(true);
        expect(out.stdout).toMatch(/env-guard: \.env holds secrets/);
      }
      expect((await emit(dir, payload)).stderr).toMatch(/not through the daemon: .*hookbox\.sock: request_too_large/);
      // An agent posting it itself: the rule over the hooks it could have reached.
      const mark = entries().length;
      const http = await call(world.socket, "POST", "/v1/agents/claude", payload);
      expect(http.status).toBe(200);
      if (onError === "deny") expect(http.text).toMatch(/"permissionDecision":"deny"|"decision":"block"/);
      else expect(http.text).toMatch(/systemMessage.*larger than/);
      expect(lastDecision(mark)).toMatchObject({ incomplete: { code: "request_too_large" } });
    });

    it(`a guard skipped by the event deadline applies its on_error (${onError})`, async () => {
      // A built-in that never polls QuickJS's interrupt: its worker must be killed (or its thread
      // given up on) and replaced, which takes the rest of the tight deadline: the guard after it
      // cannot start. (A hook that merely spins gets its share of the deadline and fails alone:
      // the guard still runs — test/e2e/guards-hold.test.ts.)
      const slow = "export default () => Array.prototype.indexOf.call({ length: 2 ** 32 - 1 }, 1);\n";
      const dir = project({
        ...guardFiles(onError, "priority: 50\n"),
        "slow/hook.yaml": "id: slow\nevents: [PreToolUse]\npriority: 1\nlimits: { cpu_ms: 5000, timeout_ms: 5000 }\nhandler: ./handler.ts\n",
        "slow/handler.ts": slow,
      });
      writeFileSync(operatorFileOf(world), `${SELF_PROTECT_OFF}dispatch: { event_deadline_ms: 400 }\n`);
      try {
        await threeWays(
          dir,
          writeEnv(dir),
          (out, via) => expect(denied(out), `${via}: ${out.stdout}`).toBe(onError === "deny"),
          (record) => expect(record.decision).toBe(onError === "deny" ? "deny" : "allow"),
        );
        const skipped = entries()
          .filter((e) => e.hook_id === "env-guard" && e.status === "skipped")
          .at(-1);
        expect(skipped).toMatchObject({ error_code: "dispatch_deadline" });
      } finally {
        writeFileSync(operatorFileOf(world), SELF_PROTECT_OFF);
      }
    });
  }

  it("an operator file with a typo, or naming a standard hook that does not exist: emit denies every event; the daemon keeps its last good file and says so", async () => {
    const dir = project({});
    const configDir = join(world.home, ".config", "hookbox");
    mkdirSync(configDir, { recursive: true });
    const operatorFile = join(configDir, "hookbox.yaml");
    // A good file first: the daemon reads it (its last good one).
    writeFileSync(operatorFile, "builtin: [guard-secrets]\n");
    const good = await emit(dir, JSON.stringify(writeEnv(dir)));
    expect(denied(good)).toBe(true); // guard-secrets
    try {
      for (const [text, problem] of [
        ["builtin: [guard-secrets]\nbuitlin: [bash-guard]\n", /buitlin/],
        ["builtin: [guard-secret]\n", /no standard hook "guard-secret" \(did you mean "guard-secrets"\?\)/],
      ] as const) {
        writeFileSync(operatorFile, text);
        const harmless = JSON.stringify({ ...writeEnv(dir), tool_name: "Read", tool_input: { file_path: join(dir, "README.md") } });
        const alone = await noDaemon(dir, harmless);
        expect(denied(alone), "emit without a daemon denies everything").toBe(true);
        const reason = JSON.stringify(JSON.parse(alone.stdout)).replace(/\\"/g, '"');
        expect(reason).toMatch(/operator file is invalid/);
        expect(reason).toMatch(problem);
        expect(reason).toMatch(/hookbox\.yaml:\d+:\d+/);
        const viaDaemon = await emit(dir, harmless);
        expect(denied(viaDaemon), "the daemon answers with its last good file").toBe(false);
        expect(viaDaemon.stdout).toMatch(/systemMessage.*operator file is invalid.*last valid version stays in force/);
        const health = await call(world.socket, "GET", "/healthz");
        expect(health.status).toBe(503);
        expect(health.json).toMatchObject({ status: "degraded" });
      }
    } finally {
      writeFileSync(operatorFile, SELF_PROTECT_OFF);
    }
  });

  it("a daemon started with a broken operator file (no last good one) denies every event, naming the file", async () => {
    const own = new DaemonWorld();
    try {
      mkdirSync(join(own.home, ".config", "hookbox"), { recursive: true });
      writeFileSync(join(own.home, ".config", "hookbox", "hookbox.yaml"), "builtin: [guard-secret]\n");
      const child = spawn(BUILT_BINARY, ["serve", "--workers", "1"], { cwd: own.dir, env: own.env(), stdio: "ignore" });
      try {
        const deadline = Date.now() + 30_000;
        while (
          !(await call(own.socket, "GET", "/healthz").then(
            () => true,
            () => false,
          ))
        ) {
          if (Date.now() > deadline) throw new Error("serve did not come up");
          await new Promise((r) => setTimeout(r, 50));
        }
        const dir = join(own.dir, "p");
        mkdirSync(dir);
        const reply = await call(own.socket, "POST", "/v1/agents/claude", {
          ...writeEnv(dir),
          tool_name: "Read",
          tool_input: { file_path: "README.md" },
        });
        expect(reply.status).toBe(200);
        expect(reply.text).toMatch(/"permissionDecision":"deny".*operator file is invalid.*hookbox\.yaml:1:\d+/);
      } finally {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
    } finally {
      own.cleanup();
    }
  });

  it("an audit log that cannot be written still answers (loudly); with fail_closed it denies", async () => {
    const own = new DaemonWorld();
    try {
      const dir = join(own.dir, "p");
      mkdirSync(join(dir, ".git"), { recursive: true });
      // A directory where the log file should be: what `mkdir` by the agent's Bash could do.
      mkdirSync(own.auditFile, { recursive: true });
      const payload = JSON.stringify({ ...writeEnv(dir), cwd: dir, tool_name: "Read", tool_input: { file_path: join(dir, "README.md") } });
      const run = (args: readonly string[] = []): Promise<RunResult> =>
        runProgram([BUILT_BINARY, "emit", "PreToolUse", "--agent", "claude", "--no-daemon", ...args], { cwd: dir, env: own.env(), stdin: payload });
      const open = await run();
      expect(open.code).toBe(0);
      expect(denied(open)).toBe(false);
      expect(open.stdout).toMatch(/systemMessage.*could not write its audit log/);
      expect(open.stderr).toMatch(/could not write its audit log/);
      const closed = await run(["--fail-closed"]);
      expect(denied(closed)).toBe(true);
      expect(closed.stdout).toMatch(/could not write its audit log.*fail-closed/);
      // The daemon: still answering, /healthz degraded, the gauge at 1.
      const child = spawn(BUILT_BINARY, ["serve", "--workers", "1"], { cwd: own.dir, env: own.env(), stdio: "ignore" });
      try {
        const deadline = Date.now() + 30_000;
        while (
          !(await call(own.socket, "GET", "/healthz").then(
            () => true,
            () => false,
          ))
        ) {
          if (Date.now() > deadline) throw new Error("serve did not come up");
          await new Promise((r) => setTimeout(r, 50));
        }
        const reply = await call(own.socket, "POST", "/v1/agents/claude", payload);
        expect(reply.status).toBe(200);
        expect(reply.text).toMatch(/could not write its audit log/);
        expect((await call(own.socket, "GET", "/healthz")).json).toMatchObject({ status: "degraded", checks: { audit: { ok: false } } });
        expect((await call(own.socket, "GET", "/metrics")).text).toMatch(/^hookbox_audit_failing 1$/m);
      } finally {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
    } finally {
      own.cleanup();
    }
  });

  for (const onError of ["deny", "continue"] as const) {
    it(`a sandbox worker that cannot start (its binary gone), on_error ${onError}: emit --process-isolation and the daemon`, async () => {
      const own = new DaemonWorld();
      try {
        writeFileSync(operatorFileOf(own), SELF_PROTECT_OFF);
        const binary = join(own.dir, "hookbox");
        copyFileSync(BUILT_BINARY, binary);
        chmodSync(binary, 0o755);
        const dir = join(own.dir, "p");
        for (const [path, text] of Object.entries(guardFiles(onError))) {
          mkdirSync(join(dir, ".hookbox", "hooks", path, ".."), { recursive: true });
          writeFileSync(join(dir, ".hookbox", "hooks", path), text);
        }
        const payload = JSON.stringify({ ...writeEnv(dir), cwd: dir });
        // emit started from an open descriptor of a binary that is then gone: the worker
        // process it spawns (the same binary) cannot start.
        const script = `exec 3<"$0"; rm -f "$0"; exec /proc/self/fd/3 emit PreToolUse --agent claude --no-daemon --process-isolation`;
        const out = await runProgram(["/bin/sh", "-c", script, binary], { cwd: dir, env: own.env(), stdin: payload });
        expect(denied(out), `${out.stdout} ${out.stderr}`).toBe(onError === "deny");
        const runs = (): Entry[] =>
          readFileSync(own.auditFile, "utf8")
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l) as Entry);
        expect(runs().find((r) => r.hook_id === "env-guard")).toMatchObject({ status: "failed", error_code: "sandbox_crashed" });

        // The daemon, started the same way: its workers cannot start either; it still answers.
        copyFileSync(BUILT_BINARY, binary);
        chmodSync(binary, 0o755);
        const serve = `exec 3<"$0"; rm -f "$0"; exec /proc/self/fd/3 serve --workers 1`;
        const child = spawn("/bin/sh", ["-c", serve, binary], { cwd: own.dir, env: own.env(), stdio: "ignore" });
        try {
          const deadline = Date.now() + 30_000;
          while (
            !(await call(own.socket, "GET", "/healthz").then(
              () => true,
              () => false,
            ))
          ) {
            if (Date.now() > deadline) throw new Error("serve did not come up");
            await new Promise((r) => setTimeout(r, 50));
          }
          const before = runs().length;
          const reply = await call(own.socket, "POST", "/v1/agents/claude", payload);
          expect(reply.status).toBe(200);
          expect(/"permissionDecision":"deny"/.test(reply.text), reply.text).toBe(onError === "deny");
          expect(
            runs()
              .slice(before)
              .find((r) => r.hook_id === "env-guard"),
          ).toMatchObject({ status: "failed", error_code: "sandbox_crashed" });
          expect((await call(own.socket, "GET", "/healthz")).json).toMatchObject({ status: "degraded", checks: { sandbox: { ok: false } } });
        } finally {
          child.kill("SIGTERM");
          await new Promise((r) => child.once("exit", r));
        }
      } finally {
        own.cleanup();
      }
    });
  }
});
