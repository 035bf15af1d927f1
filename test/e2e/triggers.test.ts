import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_BINARY, runProgram, type RunResult } from "../helpers/binary.ts";
import { DaemonWorld } from "../helpers/daemon.ts";

/**
 * Triggers through the built binary, the way a user gets them: hooks in ~/.config/hookbox/hooks
 * with a watch or a schedule, a project an agent works in, and no `hookbox serve` — the daemon
 * the agent's first `emit` starts runs them. Real files, a real git checkout, a real sink command.
 */
interface RunRecord {
  kind?: string;
  hook_id: string;
  status: string;
  trigger?: string;
  reason?: string;
  run_id?: string;
  event?: { event_type?: string; count?: number; relative_path?: string; operation?: string };
}

const DOCS_HOOK = `id: docs-watch
watch: { paths: [docs], debounce_ms: 600 }
permissions: { inject_context: true, notify: true }
handler:
  code: |
    export default async (e, hook) => {
      const what = e.changes.map((c) => c.path + " " + c.operation).join(", ");
      await hook.notify("docs changed: " + what);
      return { context_injection: "docs changed: " + what };
    }
`;

const SRC_HOOK = `id: src-watch
watch: { paths: [src], recursive: true, debounce_ms: 600 }
permissions: { inject_context: true }
handler:
  code: |
    export default (e) => ({ context_injection: "src: " + e.count + " changes" })
`;

/** Written in YAML alone: the tests on a schedule, skipped when they pass. */
const TESTS_HOOK = `id: tests
every: 1h
permissions: { run: [{ cmd: pytest, args: ["**"] }], inject_context: true }
steps:
  - { type: run_tests, command: "pytest -q", skip_if: exit_zero }
then:
  context_injection: "The tests fail: {{step_0.failures}}"
`;

class TriggerWorld extends DaemonWorld {
  readonly project = join(this.dir, "project");
  readonly bin = join(this.dir, "bin");
  readonly sinkFile = join(this.dir, "notifications.jsonl");
  readonly log = join(this.home, ".local/share/hookbox/daemon.log");

  constructor() {
    super();
    const hooks = join(this.home, ".config", "hookbox", "hooks");
    mkdirSync(hooks, { recursive: true });
    writeFileSync(join(hooks, "docs-watch.yaml"), DOCS_HOOK);
    writeFileSync(join(hooks, "src-watch.yaml"), SRC_HOOK);
    writeFileSync(join(hooks, "tests.yaml"), TESTS_HOOK);
    writeFileSync(
      join(this.home, ".config", "hookbox", "hookbox.yaml"),
      [
        "triggers: { check_interval_ms: 200, poll_interval_ms: 200 }",
        `notify: { sinks: [{ command: ["/bin/sh", "-c", "cat >> ${this.sinkFile}"] }], runs: [completed, skipped, failed] }`,
        "",
      ].join("\n"),
    );
    mkdirSync(join(this.project, "docs"), { recursive: true });
    writeFileSync(join(this.project, "docs", "a.md"), "# A\n");
    mkdirSync(this.bin);
    writeFileSync(
      join(this.bin, "pytest"),
      `#!/bin/sh\nif [ -f "${this.project}/FAIL" ]; then\n  echo "FAILED tests/test_x.py::test_total - assert 3 == 4"\n  echo "===== 1 failed, 4 passed in 0.1s ====="\n  exit 1\nfi\necho "===== 5 passed in 0.1s ====="\n`,
    );
    chmodSync(join(this.bin, "pytest"), 0o755);
  }

  override env(extra: Record<string, string> = {}): Record<string, string> {
    return super.env({ PATH: `${this.bin}:${process.env.PATH ?? "/usr/bin:/bin"}`, GIT_CONFIG_NOSYSTEM: "1", ...extra });
  }

  /** The project is a git repository: 200 files in src/ on main, other content on branch b. */
  gitRepo(): void {
    const src = join(this.project, "src");
    mkdirSync(src);
    for (let i = 0; i < 200; i++) writeFileSync(join(src, `f${i}.ts`), `export const v = ${i};\n`);
    this.git("init", "-q", "-b", "main");
    this.git("add", "-A");
    this.git("commit", "-qm", "main");
    this.git("checkout", "-qb", "b");
    for (let i = 0; i < 200; i++) writeFileSync(join(src, `f${i}.ts`), `export const v = ${i} + 1000;\n`);
    this.git("commit", "-qam", "b");
    this.git("checkout", "-q", "main");
  }

  git(...args: string[]): void {
    execFileSync("git", ["-c", "user.email=t@e", "-c", "user.name=t", ...args], { cwd: this.project, env: this.env(), stdio: "ignore" });
  }

  emit(event: string, body: Record<string, unknown>): Promise<RunResult> {
    const stdin = JSON.stringify({ session_id: "s1", transcript_path: "", cwd: this.project, hook_event_name: event, ...body });
    return runProgram([BUILT_BINARY, "emit", event, "--agent", "claude"], { cwd: this.project, env: this.env(), stdin });
  }

  preToolUse(): Promise<RunResult> {
    return this.emit("PreToolUse", { tool_name: "Read", tool_input: { file_path: join(this.project, "docs", "a.md") } });
  }

  runs(): RunRecord[] {
    if (!existsSync(this.auditFile)) return [];
    return readFileSync(this.auditFile, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as RunRecord)
      .filter((r) => r.kind !== "decision" && r.kind !== "chain");
  }

  async until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = probe();
      if (found !== undefined) return found;
      if (Date.now() > deadline)
        throw new Error(`${what}: not within ${timeoutMs} ms; daemon log:\n${existsSync(this.log) ? readFileSync(this.log, "utf8") : "(none)"}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

function contextOf(result: RunResult): string {
  expect(result.code, result.stderr).toBe(0);
  const out = JSON.parse(result.stdout || "{}") as { hookSpecificOutput?: { additionalContext?: string } };
  return out.hookSpecificOutput?.additionalContext ?? "";
}

describe("triggers through dist/hookbox and the auto-started daemon", () => {
  const world = new TriggerWorld();
  let daemonPid: number | undefined;

  beforeAll(async () => {
    world.gitRepo();
    // The first event answers itself and starts the daemon; the next ones reach it, and so it serves the project.
    expect((await world.preToolUse()).code).toBe(0);
    for (let tries = 0; daemonPid === undefined && tries < 200; tries++) {
      const info = await runProgram([BUILT_BINARY, "daemon", "status", "--json"], { cwd: world.project, env: world.env() });
      daemonPid = (JSON.parse(info.stdout) as { daemons: { info?: { pid: number } }[] }).daemons.find((d) => d.info)?.info?.pid;
      if (daemonPid === undefined) await new Promise((r) => setTimeout(r, 100));
    }
    expect(daemonPid).toBeTypeOf("number");
    await world.preToolUse();
    // The schedule runs at once: the tests pass, so the run is skipped with its reason.
    await world.until("the first scheduled run of tests", () => world.runs().find((r) => r.hook_id === "tests" && r.trigger === "periodic"));
  }, 60_000);

  afterAll(() => {
    if (daemonPid) {
      try {
        process.kill(daemonPid, "SIGTERM");
      } catch {
        // Gone already.
      }
    }
    world.cleanup();
  });

  it("a YAML-only run_tests hook with skip_if: exit_zero is skipped, with its reason, while the tests pass", () => {
    const first = world.runs().filter((r) => r.hook_id === "tests");
    expect(first).toEqual([expect.objectContaining({ status: "skipped", trigger: "periodic", reason: "step_0: exit code 0 (skip_if: exit_zero)" })]);
  });

  it("touching a watched file produces exactly one run after the debounce; its context arrives on the next PreToolUse, with provenance; the hook's notify reaches the command sink", async () => {
    writeFileSync(join(world.project, "docs", "a.md"), "# A, edited\n");
    const run = await world.until("the docs-watch run", () => world.runs().find((r) => r.hook_id === "docs-watch" && r.status !== "running"));
    expect(run).toMatchObject({ status: "completed", trigger: "watch", event: { event_type: "folder.changed", relative_path: "docs", count: 1 } });
    // Well past another debounce and several polls: still one.
    await new Promise((r) => setTimeout(r, 2000));
    expect(world.runs().filter((r) => r.hook_id === "docs-watch")).toHaveLength(1);

    const context = contextOf(await world.preToolUse());
    expect(context).toContain('[Hookbox: from hook "docs-watch", a watch run at');
    expect(context).toContain("docs changed: docs/a.md modified");
    // Delivered once.
    expect(contextOf(await world.preToolUse())).not.toContain("docs-watch");

    const sent = await world.until("the notifications", () => {
      const lines = existsSync(world.sinkFile) ? readFileSync(world.sinkFile, "utf8").split("\n").filter(Boolean) : [];
      const parsed = lines.map((line) => JSON.parse(line) as { kind: string; hook_id: string; phase?: string; message: string });
      return parsed.some((n) => n.kind === "run" && n.hook_id === "docs-watch" && n.phase === "completed") ? parsed : undefined;
    });
    expect(sent).toContainEqual(expect.objectContaining({ kind: "hook", hook_id: "docs-watch", message: "docs changed: docs/a.md modified" }));
  });

  it("a git checkout of 200 files produces one folder event", async () => {
    world.git("checkout", "-q", "b");
    const run = await world.until("the src-watch run", () => world.runs().find((r) => r.hook_id === "src-watch" && r.status !== "running"));
    expect(run).toMatchObject({ status: "completed", trigger: "watch", event: { event_type: "folder.changed", relative_path: "src", count: 200 } });
    await new Promise((r) => setTimeout(r, 2000));
    expect(world.runs().filter((r) => r.hook_id === "src-watch")).toHaveLength(1);
    expect(contextOf(await world.preToolUse())).toContain("src: 200 changes");
  });

  it("hookbox fire runs the tests hook inside its hour; failing tests are injected on the next PreToolUse", async () => {
    writeFileSync(join(world.project, "FAIL"), "");
    const fired = await runProgram([BUILT_BINARY, "fire", "tests", "--json"], { cwd: world.project, env: world.env() });
    expect(fired.code, fired.stderr).toBe(0);
    expect(JSON.parse(fired.stdout)).toMatchObject({ hook_id: "tests", status: "completed" });
    const runs = world.runs().filter((r) => r.hook_id === "tests");
    expect(runs.map((r) => [r.trigger, r.status])).toEqual([
      ["periodic", "skipped"],
      ["manual", "completed"],
    ]);
    const context = contextOf(await world.preToolUse());
    expect(context).toContain('[Hookbox: from hook "tests", a manual run at');
    expect(context).toContain('The tests fail: ["tests/test_x.py::test_total"]');
    rmSync(join(world.project, "FAIL"));
  });
});
