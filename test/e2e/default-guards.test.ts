// Guards on by default, and no reader led to believe they are on when they are not (issue 27):
// the binary as the agent runs it, in a temp HOME. A daemon serving more guards than the agent's
// own hook set (`serve --builtin all`, the old quick start) makes emit warn the agent's user,
// in the agent's dialect, on every tool call — whether emit answers itself or the daemon of its
// own hook set does.
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram } from "../helpers/binary.ts";

describe("emit warns the agent's user when a daemon of another hook set guards more than the agent's own", () => {
  let root: string;
  let project: string;
  let env: Record<string, string>;
  let serve: ChildProcess | undefined;
  const payload = (file: string, event: string) =>
    JSON.stringify({
      hook_event_name: event,
      session_id: "s1",
      transcript_path: "",
      cwd: project,
      tool_name: "Write",
      tool_input: { file_path: join(project, file), content: "A=1" },
      ...(event === "PostToolUse" ? { tool_response: {} } : {}),
    });
  const emit = (file: string, event = "PreToolUse") =>
    runProgram([BUILT_BINARY, "emit", event, "--agent", "claude"], { stdin: payload(file, event), env, cwd: project });

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), "hookbox-default-guards-"));
    project = join(root, "shop");
    mkdirSync(join(project, ".git"), { recursive: true });
    env = { HOME: join(root, "home"), PATH: "/usr/bin:/bin", XDG_RUNTIME_DIR: join(root, "run") };
    mkdirSync(env.XDG_RUNTIME_DIR as string, { mode: 0o700 });
    // The old quick start: every standard hook served on the default socket, by a flag the agent's entries do not pass.
    serve = spawn(BUILT_BINARY, ["serve", "--builtin", "all", "--workers", "1"], { env, stdio: "ignore" });
    const socket = join(root, "run", "hookbox", "hookbox.sock");
    for (let i = 0; i < 200 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(socket), "the daemon's socket").toBe(true);
  });
  afterEach(async () => {
    await runProgram([BUILT_BINARY, "daemon", "stop"], { env, cwd: project }).catch(() => undefined);
    serve?.kill("SIGTERM");
    if (serve && serve.exitCode === null) await new Promise((r) => serve?.once("exit", r));
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  it("an agent installed with --no-default-guards: each tool call answers with Claude's systemMessage naming the fix, through emit and through its own daemon", async () => {
    const installed = await runProgram([BUILT_BINARY, "install-agent", "claude", "--no-default-guards"], { env, cwd: project });
    expect(installed.code, installed.stderr).toBe(0);
    const answers = [];
    // The first emit answers itself and starts its own daemon; the later ones go through that daemon.
    for (let i = 0; i < 4; i++) {
      const run = await emit(".env");
      expect(run.code, run.stderr).toBe(0);
      answers.push(JSON.parse(run.stdout) as { systemMessage?: string; hookSpecificOutput?: unknown });
      await new Promise((r) => setTimeout(r, 300));
    }
    for (const answer of answers) {
      expect(answer.hookSpecificOutput, "nothing guards it: the write is allowed").toBeUndefined();
      expect(answer.systemMessage).toContain(`Hookbox: this agent is protected by nothing but self-protect: no guard checks its tool calls`);
      expect(answer.systemMessage).toContain(
        `Enable the standard guards in ${join(root, "home", ".config", "hookbox", "hookbox.yaml")}: builtin: [guard-secrets, bash-guard]`,
      );
      // Why that daemon was not used, as emit says it on stderr (its words are emit's daemon check's).
      expect(answer.systemMessage).toMatch(/A daemon emit asked first was not used: .*builtin/);
    }
    const status = await runProgram([BUILT_BINARY, "daemon", "status", "--json"], { env, cwd: project });
    expect(status.stdout, "a daemon of the agent's own hook set answered the later calls").toMatch(/auto-[0-9a-f]+\.sock/);
  });

  it("Gemini CLI gets it in its own dialect (systemMessage beside its decision)", async () => {
    writeFileSync(join(root, "hookbox.yaml"), "daemon: { auto_start: false }\n");
    env = { ...env, HOOKBOX_CONFIG: join(root, "hookbox.yaml") };
    const run = await runProgram([BUILT_BINARY, "emit", "BeforeTool", "--agent", "gemini"], {
      stdin: JSON.stringify({
        hook_event_name: "BeforeTool",
        session_id: "s",
        transcript_path: "",
        cwd: project,
        timestamp: "2026-11-27T00:00:00Z",
        tool_name: "write_file",
        tool_input: { file_path: join(project, "notes.txt"), content: "x" },
      }),
      env,
      cwd: project,
    });
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { systemMessage?: string }).systemMessage).toMatch(
      /^Hookbox: this agent is protected by nothing but self-protect/,
    );
  });

  it("an agent with the default guards: no warning, and its .env write is refused", async () => {
    const installed = await runProgram([BUILT_BINARY, "install-agent", "claude"], { env, cwd: project });
    expect(installed.code, installed.stderr).toBe(0);
    // No daemon of its own: the test ends with the one it started.
    appendFileSync(join(root, "home", ".config", "hookbox", "hookbox.yaml"), "daemon: { auto_start: false }\n");
    const denied = await emit(".env");
    expect(JSON.parse(denied.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    expect(denied.stdout).not.toContain("protected by nothing");
    const allowed = await emit("notes.txt");
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).not.toContain("protected by nothing");
  });

  it("only on tool calls and the session's start: a PostToolUse says nothing", async () => {
    const installed = await runProgram([BUILT_BINARY, "install-agent", "claude", "--no-default-guards"], { env, cwd: project });
    expect(installed.code, installed.stderr).toBe(0);
    writeFileSync(join(root, "hookbox.yaml"), "daemon: { auto_start: false }\n");
    env = { ...env, HOOKBOX_CONFIG: join(root, "hookbox.yaml") };
    expect((await emit("notes.txt")).stdout, "the same call before the tool runs warns").toContain("protected by nothing");
    const post = await emit("notes.txt", "PostToolUse");
    expect(post.code, post.stderr).toBe(0);
    expect(post.stdout).not.toContain("protected by nothing");
  });
});

describe("serve says at start when it serves no guard, and --default-guards writes the operator file first", () => {
  it.each([
    [
      "no operator file",
      [],
      /hookbox: NO GUARD: every agent this daemon answers \(unless its project brings a guard\) is protected by nothing but self-protect/,
      false,
    ],
    [
      "--default-guards",
      ["--default-guards"],
      /hookbox: wrote \S+\/\.config\/hookbox\/hookbox\.yaml \(there was none\): the standard guards guard-secrets, bash-guard are on/,
      true,
    ],
  ] as const)("%s", async (_name, flags, said, written) => {
    const root = mkdtempSync(join(tmpdir(), "hookbox-serve-guards-"));
    const env = { HOME: join(root, "home"), PATH: "/usr/bin:/bin", XDG_RUNTIME_DIR: join(root, "run") };
    const serve = spawn(BUILT_BINARY, ["serve", "--workers", "1", ...flags], { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    serve.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      for (let i = 0; i < 200 && !/serving \d+ hook/.test(stderr); i++) await new Promise((r) => setTimeout(r, 50));
      expect(stderr).toMatch(said);
      expect(stderr.includes("NO GUARD")).toBe(!written);
      expect(existsSync(join(root, "home", ".config", "hookbox", "hookbox.yaml"))).toBe(written);
    } finally {
      serve.kill("SIGTERM");
      if (serve.exitCode === null) await new Promise((r) => serve.once("exit", r));
      rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  });
});
