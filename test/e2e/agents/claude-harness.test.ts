// The real Claude Code CLI, offline, against the mock model: proves the harness with plain hook
// scripts (hooks/record-and-answer.mjs) and an in-test HTTP hook server. When Hookbox's `emit`
// exists, the same runs swap the hook command for `dist/hookbox emit <Event> --agent claude`.
import { createServer } from "node:http";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it, type TestContext } from "vitest";
import {
  CLAUDE_EVENTS,
  cleanupRun,
  findClaudeBinary,
  hookResponses,
  runClaude,
  type ClaudeBinary,
  type ClaudeRun,
  type ClaudeRunOptions,
} from "./claude-code.ts";
import { HookRecorder } from "./hook-recorder.ts";
import { closeServer, listenLocal, parseJson, readBody, sendJson } from "./local-http.ts";
import { systemMessageText, toolResultText, useTool } from "./mock-anthropic.ts";

const DENY_REASON = "HOOKBOX_E2E_DENY: deleting files is not allowed in this project";
const TOOL_ID = "toolu_01HOOKBOXE2E0000000000001";

let claude: ClaudeBinary;
const cleanups: Array<() => void | Promise<void>> = [];

beforeAll(() => {
  claude = findClaudeBinary();
  if (!claude.ok) console.warn(`[claude-harness] skipping: ${claude.reason}`);
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Skip (never pass) when the CLI cannot run here, saying why. */
function requireClaude(ctx: TestContext): string {
  if (!claude.ok) ctx.skip(claude.reason);
  return claude.path;
}

function recorder(): HookRecorder {
  const hooks = new HookRecorder();
  cleanups.push(() => hooks.cleanup());
  return hooks;
}

async function run(binary: string, options: ClaudeRunOptions): Promise<ClaudeRun> {
  const result = await runClaude(binary, options);
  cleanups.push(() => cleanupRun(result));
  expect(result.timedOut, `claude -p timed out\nstderr: ${result.stderr}`).toBe(false);
  expect(result.exitCode, `claude -p failed\nstderr: ${result.stderr}\nstdout: ${result.stdout.slice(-2000)}`).toBe(0);
  return result;
}

describe("Claude Code (real CLI, mock model) with plain command hooks", () => {
  it("a PreToolUse JSON deny blocks the Bash call and the model's next request carries the reason", async (ctx) => {
    const binary = requireClaude(ctx);
    const hooks = recorder().answer("PreToolUse", {
      stdout: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: DENY_REASON } },
    });
    const result = await run(binary, {
      prompt: "clean up",
      model: { script: [useTool("Bash", { command: "echo ran > denied.txt", description: "side effect" }, TOOL_ID)] },
      hooks: [{ type: "command", events: CLAUDE_EVENTS, command: hooks.command }],
    });

    expect(existsSync(join(result.projectDir, "denied.txt")), "the denied command ran").toBe(false);
    const next = result.model.resultOf(TOOL_ID);
    expect(next?.turn).toBe(1);
    expect(next?.result.is_error).toBe(true);
    expect(toolResultText(next!.result)).toBe(`PreToolUse:Bash hook error: ${DENY_REASON}`);
    expect(hooks.events()).not.toContain("PostToolUse");
    const pre = hooks.calls().find((call) => call.event === "PreToolUse");
    expect(pre?.payload).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_use_id: TOOL_ID,
      tool_input: { command: "echo ran > denied.txt" },
    });
  });

  it("exit 2 also blocks; the model then sees the hook's whole command line before the stderr reason", async (ctx) => {
    const binary = requireClaude(ctx);
    const hooks = recorder().answer("PreToolUse", { stderr: DENY_REASON, exit: 2 });
    const result = await run(binary, {
      prompt: "clean up",
      model: { script: [useTool("Bash", { command: "echo ran > denied.txt", description: "side effect" }, TOOL_ID)] },
      hooks: [{ type: "command", events: ["PreToolUse"], command: hooks.command, matcher: "Bash" }],
    });

    expect(existsSync(join(result.projectDir, "denied.txt"))).toBe(false);
    const next = result.model.resultOf(TOOL_ID);
    expect(next?.result.is_error).toBe(true);
    // real-clients.md note 1: `[<command line>]: <stderr>` — the command line leaks to the model.
    expect(toolResultText(next!.result)).toBe(`PreToolUse:Bash hook error: [${hooks.command("PreToolUse")}]: ${DENY_REASON}`);
  });

  it("the cross-agent answer (Gemini's decision:block plus Claude's deny) blocks Claude too", async (ctx) => {
    const binary = requireClaude(ctx);
    const hooks = recorder().answer("PreToolUse", {
      stdout: {
        decision: "block",
        reason: DENY_REASON,
        hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: DENY_REASON },
      },
    });
    const result = await run(binary, {
      prompt: "clean up",
      model: { script: [useTool("Bash", { command: "echo ran > denied.txt", description: "side effect" }, TOOL_ID)] },
      hooks: [{ type: "command", events: ["PreToolUse"], command: hooks.command, matcher: "Bash" }],
    });

    expect(existsSync(join(result.projectDir, "denied.txt"))).toBe(false);
    expect(toolResultText(result.model.resultOf(TOOL_ID)!.result)).toBe(`PreToolUse:Bash hook error: ${DENY_REASON}`);
  });

  it("additionalContext from SessionStart, UserPromptSubmit and PostToolUse reaches the model as system messages", async (ctx) => {
    const binary = requireClaude(ctx);
    const context = (event: string) => ({ stdout: { hookSpecificOutput: { hookEventName: event, additionalContext: `CTX_FROM_${event}` } } });
    const hooks = recorder()
      .answer("SessionStart", context("SessionStart"))
      .answer("UserPromptSubmit", context("UserPromptSubmit"))
      .answer("PostToolUse", context("PostToolUse"));
    const result = await run(binary, {
      prompt: "look around",
      model: { script: [useTool("Bash", { command: "echo listing", description: "list" }, TOOL_ID)] },
      hooks: [{ type: "command", events: CLAUDE_EVENTS, command: hooks.command }],
    });

    const [first, second] = result.model.turns();
    expect(systemMessageText(first!)).toContain("SessionStart hook additional context: CTX_FROM_SessionStart");
    expect(systemMessageText(first!)).toContain("UserPromptSubmit hook additional context: CTX_FROM_UserPromptSubmit");
    expect(systemMessageText(first!)).not.toContain("CTX_FROM_PostToolUse");
    expect(systemMessageText(second!)).toContain("PostToolUse:Bash hook additional context: CTX_FROM_PostToolUse");
  });

  it("with an allowing hook the Bash tool really runs, and all five events fire in order with the observed payload shapes", async (ctx) => {
    const binary = requireClaude(ctx);
    const hooks = recorder().answer("PreToolUse", {
      stdout: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "ok" } },
    });
    const result = await run(binary, {
      prompt: "write the file",
      model: { script: [useTool("Bash", { command: "echo hookbox-was-here > allowed.txt && echo wrote", description: "write" }, TOOL_ID)] },
      hooks: [{ type: "command", events: CLAUDE_EVENTS, command: hooks.command }],
    });

    expect(readFileSync(join(result.projectDir, "allowed.txt"), "utf8")).toBe("hookbox-was-here\n");
    const next = result.model.resultOf(TOOL_ID);
    expect(next?.result.is_error).toBe(false);
    expect(toolResultText(next!.result)).toBe("wrote");

    expect(hooks.events()).toEqual(["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"]);
    expect(hookResponses(result).map((event) => event.hook_event)).toEqual(hooks.events());
    const byEvent = Object.fromEntries(hooks.calls().map((call) => [call.event, call.payload]));
    const common = ["cwd", "hook_event_name", "session_id", "transcript_path"];
    const inPrompt = [...common, "permission_mode", "prompt_id"];
    const keys = (event: string) => Object.keys(byEvent[event] ?? {}).sort();
    expect(keys("SessionStart")).toEqual([...common, "source"].sort());
    expect(keys("UserPromptSubmit")).toEqual([...inPrompt, "prompt"].sort());
    expect(keys("PreToolUse")).toEqual([...inPrompt, "effort", "tool_input", "tool_name", "tool_use_id"].sort());
    expect(keys("PostToolUse")).toEqual([...inPrompt, "duration_ms", "effort", "tool_input", "tool_name", "tool_response", "tool_use_id"].sort());
    expect(keys("Stop")).toEqual([...inPrompt, "background_tasks", "effort", "last_assistant_message", "session_crons", "stop_hook_active"].sort());
    expect(byEvent.SessionStart).toMatchObject({ source: "startup", cwd: result.projectDir });
    expect(byEvent.UserPromptSubmit).toMatchObject({ prompt: "write the file", permission_mode: "bypassPermissions" });
    expect(byEvent.PostToolUse).toMatchObject({ tool_response: { stdout: "wrote", stderr: "", interrupted: false, isImage: false } });
    expect(byEvent.Stop).toMatchObject({ stop_hook_active: false, last_assistant_message: 'MOCK_FINAL: tool_result is_error=false content="wrote"' });
    expect(hooks.calls()[0]?.env.CLAUDE_PROJECT_DIR).toBe(result.projectDir);
    // Hooks inherit Claude's secrets (real-clients.md note 9): what `hookbox emit` must not pass on.
    expect(hooks.calls()[0]?.envNames).toEqual(expect.arrayContaining(["ANTHROPIC_API_KEY", "CLAUDE_CODE_MESSAGING_TOKEN"]));
  });
});

describe('Claude Code (real CLI, mock model) with type: "http" hooks', () => {
  it("an HTTP hook's JSON deny blocks the tool; Claude sends the configured headers with env interpolation", async (ctx) => {
    const binary = requireClaude(ctx);
    const received: Array<{ path: string; headers: Record<string, unknown>; body: Record<string, unknown> | undefined }> = [];
    const server = createServer((req, res) => {
      void readBody(req).then((raw) => {
        const body = parseJson<Record<string, unknown>>(raw);
        received.push({ path: req.url ?? "", headers: req.headers, body });
        if (body?.hook_event_name === "PreToolUse") {
          sendJson(res, 200, {
            hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: DENY_REASON },
          });
        } else if (body?.hook_event_name === "UserPromptSubmit") {
          sendJson(res, 200, { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "CTX_FROM_HTTP_HOOK" } });
        } else sendJson(res, 200, {});
      });
    });
    const baseUrl = await listenLocal(server);
    cleanups.push(() => closeServer(server));

    const result = await run(binary, {
      prompt: "clean up",
      model: { script: [useTool("Bash", { command: "echo ran > denied.txt", description: "side effect" }, TOOL_ID)] },
      hooks: [
        {
          type: "http",
          events: CLAUDE_EVENTS,
          url: (event) => `${baseUrl}/hooks/${event}`,
          headers: { Authorization: "Bearer $HOOKBOX_E2E_TOKEN" },
          allowedEnvVars: ["HOOKBOX_E2E_TOKEN"],
        },
      ],
      env: { HOOKBOX_E2E_TOKEN: "e2e-token-123" },
    });

    expect(existsSync(join(result.projectDir, "denied.txt"))).toBe(false);
    const next = result.model.resultOf(TOOL_ID);
    expect(next?.result.is_error).toBe(true);
    expect(toolResultText(next!.result)).toBe(`PreToolUse:Bash hook error: ${DENY_REASON}`);
    expect(systemMessageText(result.model.turns()[0]!)).toContain("UserPromptSubmit hook additional context: CTX_FROM_HTTP_HOOK");

    // SessionStart accepts only command hooks: Claude skips an HTTP one (and says so only in the debug log).
    expect(received.map((r) => r.path)).toEqual(["/hooks/UserPromptSubmit", "/hooks/PreToolUse", "/hooks/Stop"]);
    expect(readFileSync(result.debugLog, "utf8")).toContain("HTTP hooks are not supported for SessionStart");
    const pre = received.find((r) => r.path === "/hooks/PreToolUse");
    expect(pre?.headers).toMatchObject({ authorization: "Bearer e2e-token-123", "content-type": "application/json" });
    expect(pre?.body).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_use_id: TOOL_ID });
    // hook_response reports the HTTP status in exit_code.
    expect(hookResponses(result).find((event) => event.hook_event === "PreToolUse")).toMatchObject({ exit_code: 200, outcome: "success" });
  });
});
