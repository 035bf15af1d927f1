// The real Claude Code CLI (offline, mock model) with the settings `hookbox install-agent claude`
// wrote: the entries run the binary by its absolute path, with no flags, and Hookbox finds the
// user's hooks on its own. And why install-agent warns about comments in Claude's settings:
// Claude Code then ignores the whole file, Hookbox's hooks included. Skipped, saying why, when
// the CLI cannot run here.
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { BUILT_BINARY, runProgram } from "../../helpers/binary.ts";
import { cleanupRun, findClaudeBinary, runClaude, type ClaudeBinary } from "./claude-code.ts";
import { INSTALLED_DENY, installSettings, type InstalledSettings } from "./installed-settings.ts";
import { toolResultText, useTool } from "./mock-anthropic.ts";

const TOOL_ID = "toolu_01HOOKBOXINSTALL000000001";

let claude: ClaudeBinary;
let installed: InstalledSettings;

beforeAll(async () => {
  claude = findClaudeBinary();
  if (!claude.ok) console.warn(`[claude-install] skipping: ${claude.reason}`);
  installed = await installSettings("claude", ".claude/settings.json");
});
afterAll(() => installed.cleanup());

function requireClaude(ctx: TestContext): string {
  if (!claude.ok) ctx.skip(claude.reason);
  return claude.path;
}

/** Claude Code with `settings` as the project's .claude/settings.json, asked to run `rm -rf build`: did the rm run, and what did the model get back? */
async function rmUnder(binary: string, settings: string): Promise<{ ran: boolean; result: string }> {
  const run = await runClaude(binary, {
    prompt: "clean up the build",
    model: { script: [useTool("Bash", { command: "rm -rf build && echo ran > ran.txt", description: "clean" }, TOOL_ID)] },
    hooks: [],
    files: { ".claude/settings.json": settings },
    env: { XDG_CONFIG_HOME: installed.xdgConfigHome },
    timeoutMs: 90_000,
  });
  try {
    expect(run.exitCode, `claude -p failed\nstderr: ${run.stderr}`).toBe(0);
    return { ran: existsSync(join(run.projectDir, "ran.txt")), result: toolResultText(run.model.resultOf(TOOL_ID)!.result) };
  } finally {
    cleanupRun(run);
  }
}

describe("Claude Code with the settings install-agent wrote", () => {
  it("runs the absolute binary with no flags, and a hook from the user's hook directory blocks the tool", async (ctx) => {
    const binary = requireClaude(ctx);
    const outcome = await rmUnder(binary, installed.text);
    expect(outcome.ran, "the denied command ran").toBe(false);
    expect(outcome.result).toContain(INSTALLED_DENY);
  });

  it.for([
    ["a comment", (text: string) => `// hooks by hookbox\n${text}`],
    ["a trailing comma", (text: string) => text.replace(/\n}\n$/, ",\n}\n")],
  ] as const)("ignores the whole file, Hookbox's hooks included, when it has %s (what install-agent's note says)", async ([, spoil], ctx) => {
    const binary = requireClaude(ctx);
    expect(spoil(installed.text)).not.toBe(installed.text);
    const outcome = await rmUnder(binary, spoil(installed.text));
    expect(outcome.ran).toBe(true);
    expect(outcome.result).not.toContain(INSTALLED_DENY);
  });
});

describe("Claude Code with only install-agent done: no serve by hand", () => {
  it("the first event is answered by emit, which starts a daemon; later events are served by it (the audit says so)", async (ctx) => {
    const binary = requireClaude(ctx);
    const calls = ["a", "b", "c", "d", "e"].map((word, i) =>
      useTool("Bash", { command: `echo ${word} >> words.txt`, description: word }, `toolu_01HOOKBOXAUTODAEMON0000${i}`),
    );
    const run = await runClaude(binary, {
      prompt: "write five words",
      model: { script: calls },
      hooks: [],
      files: { ".claude/settings.json": installed.text },
      env: { XDG_CONFIG_HOME: installed.xdgConfigHome },
      timeoutMs: 120_000,
    });
    try {
      expect(run.exitCode, `claude -p failed\nstderr: ${run.stderr}`).toBe(0);
      expect(readFileSync(join(run.projectDir, "words.txt"), "utf8")).toBe("a\nb\nc\nd\ne\n");
      const audit = join(run.homeDir, ".local/share/hookbox/audit/hookbox-audit.jsonl");
      const decisions = readFileSync(audit, "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as { kind?: string; event_type?: string; served_by?: { via: string; pid: number } })
        .filter((record) => record.kind === "decision");
      // Ten tool events (a PreToolUse and a PostToolUse per call), and the session's own.
      expect(decisions.filter((d) => d.event_type === "PreToolUse")).toHaveLength(5);
      expect(decisions[0]?.served_by?.via, "the first event: no daemon yet").toBe("emit");
      const served = decisions.filter((d) => d.served_by?.via === "daemon");
      expect(served.length, JSON.stringify(decisions.map((d) => d.served_by))).toBeGreaterThan(0);
      // One daemon served them all: the one the first emit started.
      expect(new Set(served.map((d) => d.served_by?.pid)).size).toBe(1);
      const log = readFileSync(join(run.homeDir, ".local/share/hookbox/daemon.log"), "utf8");
      expect(log).toMatch(/serving \d+ hooks?/);
    } finally {
      cleanupRun(run);
    }
  });
});

describe("from a download to a guard that holds: self-install, install-agent, the real Claude Code (issue 19)", () => {
  it("a temp HOME whose PATH starts with an empty bin directory: the .env write is blocked by guard-secrets", async (ctx) => {
    const binary = requireClaude(ctx);
    const root = mkdtempSync(join(tmpdir(), "hookbox-download-"));
    try {
      const home = join(root, "home");
      const bin = join(home, "bin");
      const downloads = join(home, "Downloads");
      const config = join(home, ".config");
      const project = join(root, "project");
      for (const dir of [bin, downloads, join(config, "hookbox"), project]) mkdirSync(dir, { recursive: true });
      copyFileSync(BUILT_BINARY, join(downloads, "hookbox-linux-x64"));
      chmodSync(join(downloads, "hookbox-linux-x64"), 0o755);
      writeFileSync(join(config, "hookbox", "hookbox.yaml"), "builtin: [guard-secrets]\n");
      const env = { HOME: home, PATH: `${bin}:/usr/bin:/bin` };
      const installed = await runProgram([join(downloads, "hookbox-linux-x64"), "self-install", "--dir", bin], { env, cwd: downloads });
      expect(installed.code, installed.stderr).toBe(0);
      // install-agent as the user types it: found on PATH, run in the project.
      const agent = await runProgram(["bash", "-c", "hookbox install-agent claude"], { env, cwd: project });
      expect(agent.code, agent.stderr).toBe(0);
      const settings = readFileSync(join(project, ".claude/settings.json"), "utf8");
      expect(settings).toContain(`"${bin}/hookbox emit PreToolUse --agent claude"`);
      const run = await runClaude(binary, {
        prompt: "store the key",
        model: {
          script: [
            (request) =>
              useTool(
                "Write",
                { file_path: `${/\/[^\s"']*hookbox-claude-e2e-[^/\s"']+\/project/.exec(JSON.stringify(request))?.[0]}/.env`, content: "KEY=1\n" },
                TOOL_ID,
              ),
          ],
        },
        hooks: [],
        files: { ".claude/settings.json": settings },
        env: { XDG_CONFIG_HOME: config },
        timeoutMs: 120_000,
      });
      try {
        expect(run.exitCode, `claude -p failed\nstderr: ${run.stderr}`).toBe(0);
        expect(existsSync(join(run.projectDir, ".env")), "the write went through").toBe(false);
        expect(toolResultText(run.model.resultOf(TOOL_ID)!.result)).toMatch(/guard-secrets: Write on \S+\/\.env/);
      } finally {
        cleanupRun(run);
      }
    } finally {
      rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  });
});

describe("guards on by default (issue 27): a fresh install-agent claude, with no operator file, in the real Claude Code", () => {
  /** A HOME with the binary in ~/bin and no operator file, and a project; install-agent run there as the user types it. */
  async function freshInstall(
    flags: readonly string[],
  ): Promise<{ root: string; home: string; project: string; binary: string; env: Record<string, string>; stdout: string; stderr: string }> {
    const root = mkdtempSync(join(tmpdir(), "hookbox-default-guards-claude-"));
    const home = join(root, "home");
    const project = join(root, "project");
    const binary = join(home, "bin", "hookbox");
    mkdirSync(dirname(binary), { recursive: true });
    mkdirSync(join(project, ".git"), { recursive: true });
    copyFileSync(BUILT_BINARY, binary);
    chmodSync(binary, 0o755);
    const env = { HOME: home, PATH: "/usr/bin:/bin" };
    const installed = await runProgram([binary, "install-agent", "claude", ...flags], { env, cwd: project });
    expect(installed.code, installed.stderr).toBe(0);
    return { root, home, project, binary, env, stdout: installed.stdout, stderr: installed.stderr };
  }

  it("the operator file install-agent wrote guards the agent: a .env Write is blocked by guard-secrets, a normal Write goes through", async (ctx) => {
    const binary = requireClaude(ctx);
    const fresh = await freshInstall([]);
    try {
      expect(readFileSync(join(fresh.home, ".config/hookbox/hookbox.yaml"), "utf8")).toMatch(/^builtin:\n {2}- guard-secrets/m);
      expect(fresh.stdout).toContain("enables the standard guards guard-secrets, bash-guard");
      const projectOf = (request: unknown): string =>
        /\/[^\s"']*hookbox-claude-e2e-[^/\s"']+\/project/.exec(JSON.stringify(request))?.[0] ?? "/nowhere";
      const ENV_ID = "toolu_01HOOKBOXDEFAULTGUARDS0001";
      const NOTES_ID = "toolu_01HOOKBOXDEFAULTGUARDS0002";
      const run = await runClaude(binary, {
        prompt: "store the key, then write the notes",
        model: {
          script: [
            (request) => useTool("Write", { file_path: `${projectOf(request)}/.env`, content: "KEY=1\n" }, ENV_ID),
            (request) => useTool("Write", { file_path: `${projectOf(request)}/notes.txt`, content: "notes\n" }, NOTES_ID),
          ],
        },
        hooks: [],
        files: { ".claude/settings.json": readFileSync(join(fresh.project, ".claude/settings.json"), "utf8") },
        // Where install-agent wrote the operator file: the agent's Hookbox reads the same one.
        env: { XDG_CONFIG_HOME: join(fresh.home, ".config") },
        timeoutMs: 120_000,
      });
      try {
        expect(run.exitCode, `claude -p failed\nstderr: ${run.stderr}`).toBe(0);
        expect(existsSync(join(run.projectDir, ".env")), "the .env write went through").toBe(false);
        expect(toolResultText(run.model.resultOf(ENV_ID)!.result)).toMatch(/guard-secrets: Write on \S+\/\.env/);
        expect(readFileSync(join(run.projectDir, "notes.txt"), "utf8"), "the normal write").toBe("notes\n");
      } finally {
        cleanupRun(run);
      }
    } finally {
      await runProgram([BUILT_BINARY, "daemon", "stop"], { env: fresh.env, cwd: fresh.project });
      rmSync(fresh.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  });

  it("with --no-default-guards, install-agent says the agent is protected by nothing but self-protect, and doctor exits non-zero naming it", async () => {
    const fresh = await freshInstall(["--no-default-guards"]);
    try {
      expect(existsSync(join(fresh.home, ".config/hookbox/hookbox.yaml"))).toBe(false);
      expect(fresh.stderr).toContain(`NO GUARD: claude (${join(fresh.project, ".claude/settings.json")}) is protected by nothing but self-protect`);
      // Its test call through the entry starts no daemon to outlive the test.
      const doctor = await runProgram([fresh.binary, "doctor"], {
        env: { ...fresh.env, HOOKBOX_NO_DAEMON: "1" },
        cwd: fresh.project,
        timeoutMs: 120_000,
      });
      expect(doctor.code, doctor.stdout).toBe(1);
      expect(doctor.stdout).toMatch(
        /^FAIL guards of claude \(project\): claude \(\S+\/\.claude\/settings\.json\) is protected by nothing but self-protect/m,
      );
    } finally {
      await runProgram([BUILT_BINARY, "daemon", "stop"], { env: fresh.env, cwd: fresh.project });
      rmSync(fresh.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  });
});
