// The real Claude Code CLI (offline, mock model) running Hookbox itself: with the entries
// `hookbox install-agent claude` writes (the standard guards on, a project hook injecting context;
// once in emit's own process, once through a daemon), then as the `type: "http"` hooks
// `install-agent claude --http` writes, served by `dist/hookbox serve --listen`. Skipped, saying
// why, when the CLI cannot run here.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { BUILT_BINARY, runProgram } from "../../helpers/binary.ts";
import { DaemonProcess, DaemonWorld } from "../../helpers/daemon.ts";
import { MockLlmServer } from "../../helpers/mock-llm.ts";
import {
  CLAUDE_EVENTS,
  cleanupRun,
  findClaudeBinary,
  runClaude,
  runClaudeIn,
  type ClaudeBinary,
  type ClaudeRun,
  type ClaudeRunOptions,
  type ClaudeWorkspaceRunOptions,
} from "./claude-code.ts";
import { EVALUATION_MODES, clientSuite, expectFinished } from "./client-suite.ts";
import { contextMarker, daemonEvents, installAgent, witnessedEvents } from "./hookbox-setup.ts";
import { systemMessageText, toolResultText, useTool } from "./mock-anthropic.ts";
import type { AgentWorkspace } from "./workspace.ts";

const TOOL_ID = "toolu_01HOOKBOXEMIT00000000001";
const DENY = "HOOKBOX_DENY: rm is not allowed in this project";

const HOOKS: Record<string, string> = {
  "no-rm.yaml": `id: no-rm
events: [PreToolUse]
priority: 10
match: { tool: Bash, fields: { tool_input.command: "(^|[;&|]\\\\s*)rm\\\\s" } }
handler: { code: "export default () => ({ action: 'deny', reason: '${DENY}' })" }
`,
  "context.yaml": `id: context
events: [SessionStart, UserPromptSubmit]
permissions: { inject_context: true }
handler: { code: "export default (e) => ({ context_injection: 'HOOKBOX_CTX_' + e.event_type })" }
`,
  "witness.yaml": `id: witness
events: [SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop]
priority: 100
handler: { code: "export default (e) => ({ reason: 'saw ' + e.event_type })" }
`,
};

let claude: ClaudeBinary;
const cleanups: (() => void | Promise<void>)[] = [];
beforeAll(() => {
  claude = findClaudeBinary();
  if (!claude.ok) console.warn(`[claude-hookbox] skipping: ${claude.reason}`);
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function requireClaude(ctx: TestContext): string {
  if (!claude.ok) ctx.skip(claude.reason);
  return claude.path;
}

async function run(binary: string, options: ClaudeRunOptions): Promise<ClaudeRun> {
  const result = await runClaude(binary, { timeoutMs: 90_000, ...options });
  cleanups.push(() => cleanupRun(result));
  expect(result.timedOut, `claude -p timed out\nstderr: ${result.stderr}`).toBe(false);
  expect(result.exitCode, `claude -p failed\nstderr: ${result.stderr}`).toBe(0);
  return result;
}

function auditEvents(file: string): { event_type: string; hook_id: string; status: string }[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { event_type: string; hook_id: string; status: string });
}

const suite = clientSuite("claude", [], findClaudeBinary);

async function runIn(binary: string, ws: AgentWorkspace, options: ClaudeWorkspaceRunOptions): Promise<ClaudeRun> {
  const result = await runClaudeIn(binary, ws, { timeoutMs: 90_000, ...options });
  expectFinished(result, "claude -p");
  return result;
}

describe.each(EVALUATION_MODES)("Claude Code with the entries `hookbox install-agent claude` writes, evaluated %s", (_mode, withDaemon) => {
  it("guard-secrets blocks a .env write, and the model's next request carries the reason", async (ctx) => {
    const binary = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    const result = await runIn(binary, ws, {
      prompt: "store the key",
      model: { script: [useTool("Write", { file_path: join(ws.project, ".env"), content: "API_KEY=leaked\n" }, TOOL_ID)] },
      install: installAgent("claude", BUILT_BINARY),
    });
    expect(existsSync(join(ws.project, ".env")), "the .env was written").toBe(false);
    const next = result.model.resultOf(TOOL_ID);
    expect(next?.result.is_error).toBe(true);
    expect(toolResultText(next!.result)).toMatch(/guard-secrets: Write on \S+\/\.env: blocked because dotenv files hold environment secrets/);
    if (withDaemon) expect((await daemonEvents(ws)).PreToolUse).toBeGreaterThan(0);
  });

  it("an allowed command really runs, its output and the project hook's context reach the model", async (ctx) => {
    const binary = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    const result = await runIn(binary, ws, {
      prompt: "write the file",
      model: { script: [useTool("Bash", { command: "echo hookbox-was-here > allowed.txt && echo wrote", description: "write" }, TOOL_ID)] },
      install: installAgent("claude", BUILT_BINARY),
    });
    expect(readFileSync(join(ws.project, "allowed.txt"), "utf8")).toBe("hookbox-was-here\n");
    expect(toolResultText(result.model.resultOf(TOOL_ID)!.result)).toBe("wrote");
    const first = systemMessageText(result.model.turns()[0]!);
    expect(first).toContain(contextMarker("SessionStart"));
    expect(first).toContain(contextMarker("UserPromptSubmit"));
    expect(systemMessageText(result.model.turns().at(-1)!)).toContain(contextMarker("PostToolUse"));
    expect(witnessedEvents(ws)).toEqual(expect.arrayContaining(["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"]));
    if (withDaemon) expect(Object.keys(await daemonEvents(ws))).toEqual(expect.arrayContaining(["SessionStart", "PreToolUse", "PostToolUse"]));
  });
});

describe('Claude Code\'s type: "http" hooks as `install-agent claude --http` writes them, served by `hookbox serve --listen`', () => {
  it("a deny from the daemon blocks the tool, the daemon's context reaches the model, and doctor finds the daemon and the token", async (ctx) => {
    const binary = requireClaude(ctx);
    const world = new DaemonWorld();
    cleanups.push(() => world.cleanup());
    for (const [name, text] of Object.entries(HOOKS)) writeFileSync(join(world.hooks, name), text);
    mkdirSync(world.home, { recursive: true });
    const daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "1", "--listen", "127.0.0.1:0"]);
    cleanups.push(() => void daemon.stop());
    const port = Number(/http:\/\/127\.0\.0\.1:(\d+)/.exec(daemon.stderr)?.[1]);
    const token = readFileSync(join(world.home, ".local/share/hookbox/http-token"), "utf8").trim();
    const project = mkdtempSync(join(tmpdir(), "hookbox-claude-http-"));
    cleanups.push(() => rmSync(project, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));
    const env = { HOME: world.home, PATH: "/usr/bin:/bin", HOOKBOX_TOKEN: token };
    const install = await runProgram(
      [BUILT_BINARY, "install-agent", "claude", "--http", `http://127.0.0.1:${port}`, "--token-env", "HOOKBOX_TOKEN"],
      { cwd: project, env },
    );
    expect(install.code, install.stderr).toBe(0);
    const doctor = await runProgram([BUILT_BINARY, "doctor", "--json"], { cwd: project, env, timeoutMs: 120_000 });
    const checks = (JSON.parse(doctor.stdout) as { checks: { name: string; ok: boolean; detail: string }[] }).checks;
    expect(checks.find((check) => check.name === "claude (project) http")).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/a daemon answers on http:\/\/127\.0\.0\.1:\d+\/v1\/agents\/claude and accepts the token/),
    });
    const result = await run(binary, {
      prompt: "clean up the build",
      model: { script: [useTool("Bash", { command: "rm -rf build && echo ran > denied.txt", description: "clean" }, TOOL_ID)] },
      hooks: [],
      files: { ".claude/settings.json": readFileSync(join(project, ".claude/settings.json"), "utf8") },
      env: { HOOKBOX_TOKEN: token },
    });
    expect(existsSync(join(result.projectDir, "denied.txt"))).toBe(false);
    expect(toolResultText(result.model.resultOf(TOOL_ID)!.result)).toContain(DENY);
    expect(systemMessageText(result.model.turns()[0]!)).toContain("HOOKBOX_CTX_UserPromptSubmit");
    const audited = auditEvents(world.auditFile);
    expect(audited.some((r) => r.hook_id === "no-rm" && r.status === "denied")).toBe(true);
  });
});

describe("a guard that is installed is a guard that runs (issue 15), with the real Claude Code", () => {
  it("a project guard whose handler has a syntax error and on_error: deny blocks the write; the model sees the reason naming the broken file", async (ctx) => {
    const binary = requireClaude(ctx);
    const result = await run(binary, {
      prompt: "store the key",
      // The project directory is made by the run: the model reads it from its system prompt.
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
      files: {
        ".git/HEAD": "ref: refs/heads/main\n",
        ".hookbox/hooks/env-guard/hook.yaml": "id: env-guard\nevents: [PreToolUse]\non_error: deny\nhandler: ./handler.ts\n",
        ".hookbox/hooks/env-guard/handler.ts": "export default (e) => { if (e.tool_input.file_path.endsWith('.env') return { action: 'deny' };\n",
      },
      // No --hooks: the project's own hooks, found from the event's project.
      hooks: [{ type: "command", events: CLAUDE_EVENTS, command: (event) => `${BUILT_BINARY} emit ${event} --agent claude`, timeoutSec: 60 }],
    });
    expect(existsSync(join(result.projectDir, ".env")), "the write went through").toBe(false);
    const text = toolResultText(result.model.resultOf(TOOL_ID)!.result);
    expect(text).toContain("env-guard");
    expect(text).toMatch(/handler\.ts:\d+:\d+/);
  });

  it("an ask through the daemon is Claude Code's own ask at once, not a 60 s hold", async (ctx) => {
    const binary = requireClaude(ctx);
    const world = new DaemonWorld();
    cleanups.push(() => world.cleanup());
    writeFileSync(
      join(world.hooks, "ask.yaml"),
      "id: ask-first\nevents: [PreToolUse]\nmatch: { tool: Bash }\nhandler: { code: \"export default () => ({ action: 'ask_user', approval_prompt: 'HOOKBOX_ASK: run this command?' })\" }\n",
    );
    const daemon = await DaemonProcess.start([BUILT_BINARY], world, ["--workers", "1"]);
    cleanups.push(() => void daemon.stop());
    const started = Date.now();
    const result = await run(binary, {
      prompt: "list files",
      model: { script: [useTool("Bash", { command: "echo asked > asked.txt", description: "list" }, TOOL_ID)] },
      hooks: [
        {
          type: "command",
          events: ["PreToolUse"],
          command: (event) => `${BUILT_BINARY} emit ${event} --agent claude --hooks ${world.hooks}`,
          timeoutSec: 120,
        },
      ],
      // Claude's hooks reach the daemon: the same HOME and runtime directory as the daemon's.
      env: { HOME: world.home, XDG_RUNTIME_DIR: world.runtimeDir },
    });
    // Claude's permission flow answered (in -p mode it cannot prompt, so the command does not run).
    expect(existsSync(join(result.projectDir, "asked.txt"))).toBe(false);
    expect(Date.now() - started, "no approval was held for the hook timeout").toBeLessThan(45_000);
    const decisions = readFileSync(world.auditFile, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { kind?: string; decision?: string; served_by?: { via: string } });
    expect(decisions.filter((d) => d.kind === "decision")).toEqual(
      expect.arrayContaining([expect.objectContaining({ decision: "ask", served_by: expect.objectContaining({ via: "daemon" }) })]),
    );
  });
});

describe("a prompt hook (issue 21): the local model decides, the real Claude Code gets its reason", () => {
  it("the model answers deny for the Bash command: the command does not run and Claude's model reads the local model's reason", async (ctx) => {
    const binary = requireClaude(ctx);
    const local = await MockLlmServer.start();
    cleanups.push(() => local.close());
    const dir = mkdtempSync(join(tmpdir(), "hookbox-claude-prompt-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));
    mkdirSync(join(dir, "hooks"));
    writeFileSync(
      join(dir, "hooks", "prompt-guard.yaml"),
      "id: prompt-guard\nevents: [PreToolUse]\nmatch: { tool: Bash }\non_error: deny\nprompt: |\n  Deny any command that deletes files. Command: {{event.tool_input.command}}\n",
    );
    writeFileSync(
      join(dir, "hookbox.yaml"),
      `daemon: { auto_start: false }\nllm: { endpoint: "${local.url}/v1", api: openai, model: local-judge }\n`,
    );
    local.script({ content: '{"decision":"deny","reason":"HOOKBOX_LLM_DENY: the local model refuses deletions"}', usage: { input: 70, output: 14 } });
    const result = await run(binary, {
      prompt: "clean up the build",
      model: { script: [useTool("Bash", { command: "rm -rf build && echo ran > denied.txt", description: "clean" }, TOOL_ID)] },
      hooks: [
        {
          type: "command",
          events: ["PreToolUse"],
          command: (event) => `${BUILT_BINARY} emit ${event} --agent claude --hooks ${join(dir, "hooks")}`,
          timeoutSec: 60,
        },
      ],
      env: { HOOKBOX_CONFIG: join(dir, "hookbox.yaml") },
    });
    expect(existsSync(join(result.projectDir, "denied.txt")), "the denied command ran").toBe(false);
    expect(local.requests).toHaveLength(1);
    expect(JSON.stringify(local.requests[0]!.body.messages)).toContain("Command: rm -rf build && echo ran > denied.txt");
    const next = result.model.resultOf(TOOL_ID);
    expect(next?.result.is_error).toBe(true);
    expect(toolResultText(next!.result)).toContain("HOOKBOX_LLM_DENY: the local model refuses deletions");
  });
});
