import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram, type RunResult } from "../helpers/binary.ts";
import { call, DaemonWorld } from "../helpers/daemon.ts";

/**
 * The hook set of an event is its project's, wherever the agent runs the hook from: the project
 * is CLAUDE_PROJECT_DIR (or the agent's equivalent), else the payload's cwd walked up to the
 * nearest .hookbox/ or .git — never the process's working directory, and never the directory a
 * daemon was started in.
 */
const guard = (name: string): string =>
  `id: ${name}\nevents: [PreToolUse]\non_error: deny\nhandler: { code: "export default (e) => /\\\\.env$/.test(e.tool_input?.file_path ?? '') ? { action: 'deny', reason: '${name} guards .env' } : undefined" }\n`;

describe("the event's project decides the hook set (the binary)", () => {
  let world: DaemonWorld;
  let daemon: ChildProcess;
  const projects = { alpha: "", beta: "" };

  const payload = (cwd: string, file: string): string =>
    JSON.stringify({
      session_id: "p",
      transcript_path: "",
      cwd,
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      tool_input: { file_path: file, content: "x" },
    });
  const emit = (cwd: string, stdin: string, args: readonly string[] = [], env: Record<string, string> = {}): Promise<RunResult> =>
    runProgram([BUILT_BINARY, "emit", "PreToolUse", "--agent", "claude", ...args], { cwd, env: { ...world.env(), ...env }, stdin });
  const reason = (out: RunResult): string | undefined =>
    (JSON.parse(out.stdout || "{}") as { hookSpecificOutput?: { permissionDecisionReason?: string } }).hookSpecificOutput?.permissionDecisionReason;

  beforeAll(async () => {
    world = new DaemonWorld();
    for (const name of ["alpha", "beta"] as const) {
      const dir = join(world.dir, name);
      mkdirSync(join(dir, ".hookbox", "hooks"), { recursive: true });
      mkdirSync(join(dir, "src", "deep"), { recursive: true });
      writeFileSync(join(dir, ".hookbox", "hooks", "guard.yaml"), guard(`${name}-guard`));
      projects[name] = dir;
    }
    const elsewhere = join(world.dir, "elsewhere");
    mkdirSync(elsewhere);
    daemon = spawn(BUILT_BINARY, ["serve", "--workers", "1"], { cwd: elsewhere, env: world.env(), stdio: "ignore" });
    const deadline = Date.now() + 30_000;
    while (
      !(await call(world.socket, "GET", "/healthz").then(
        () => true,
        () => false,
      ))
    ) {
      if (Date.now() > deadline) throw new Error("serve did not come up");
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  afterAll(async () => {
    daemon.kill("SIGTERM");
    await new Promise((r) => daemon.once("exit", r));
    world.cleanup();
  });

  it("emit run from a subdirectory of the project, without CLAUDE_PROJECT_DIR: the project's guard blocks", async () => {
    const sub = join(projects.alpha, "src", "deep");
    const out = await emit(sub, payload(sub, join(projects.alpha, ".env")), ["--no-daemon"]);
    expect(reason(out)).toBe("alpha-guard guards .env");
  });

  it("with CLAUDE_PROJECT_DIR, the project is the variable's, whatever the payload's cwd and the process's", async () => {
    const out = await emit(world.dir, payload(world.dir, join(projects.beta, ".env")), ["--no-daemon"], { CLAUDE_PROJECT_DIR: projects.beta });
    expect(reason(out)).toBe("beta-guard guards .env");
  });

  it("through a daemon started in another directory: each project's own guard, and the audit names the project", async () => {
    for (const name of ["alpha", "beta"] as const) {
      const sub = join(projects[name], "src", "deep");
      const out = await emit(sub, payload(sub, join(projects[name], ".env")));
      expect(out.stderr, "the daemon answered").toBe("");
      expect(reason(out)).toBe(`${name}-guard guards .env`);
    }
    const decisions = readFileSync(world.auditFile, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { kind?: string; project?: string; served_by?: { via: string } });
    expect(decisions.filter((d) => d.kind === "decision" && d.served_by?.via === "daemon").map((d) => d.project)).toEqual(
      expect.arrayContaining([projects.alpha, projects.beta]),
    );
  });

  it("editing one project's hook changes its next decision at once, and only its own", async () => {
    writeFileSync(join(projects.alpha, ".hookbox", "hooks", "guard.yaml"), guard("alpha-guard-v2"));
    const alpha = await emit(projects.alpha, payload(projects.alpha, join(projects.alpha, ".env")));
    expect(reason(alpha)).toBe("alpha-guard-v2 guards .env");
    const beta = await emit(projects.beta, payload(projects.beta, join(projects.beta, ".env")));
    expect(reason(beta)).toBe("beta-guard guards .env");
  });

  it("a project whose first hook directory appears while the daemon runs gets its hooks at once", async () => {
    const late = join(world.dir, "late");
    mkdirSync(join(late, ".git"), { recursive: true });
    expect(reason(await emit(late, payload(late, join(late, ".env"))))).toBeUndefined();
    mkdirSync(join(late, ".hookbox", "hooks"), { recursive: true });
    writeFileSync(join(late, ".hookbox", "hooks", "guard.yaml"), guard("late-guard"));
    expect(reason(await emit(late, payload(late, join(late, ".env"))))).toBe("late-guard guards .env");
  });
});
