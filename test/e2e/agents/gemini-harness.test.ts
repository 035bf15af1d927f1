// The real Gemini CLI, offline, against the mock Gemini API: proves the harness with plain hook
// scripts. Later the hook command becomes `dist/hookbox emit <Event> --agent gemini`.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { cleanupGeminiRun, findGeminiCli, GEMINI_EVENTS, runGemini, type GeminiEntry, type GeminiRun, type GeminiRunOptions } from "./gemini-cli.ts";
import { HookRecorder } from "./hook-recorder.ts";
import { useTool } from "./mock-gemini.ts";

const DENY_REASON = "HOOKBOX_E2E_DENY: deleting files is not allowed in this project";
const SHELL = "run_shell_command";

let gemini: GeminiEntry;
const cleanups: Array<() => void> = [];

beforeAll(() => {
  gemini = findGeminiCli();
  if (!gemini.ok) console.warn(`[gemini-harness] skipping: ${gemini.reason}`);
});

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Skip (never pass) when the CLI cannot run here, saying why. */
function requireGemini(ctx: TestContext): Extract<GeminiEntry, { ok: true }> {
  if (!gemini.ok) ctx.skip(gemini.reason);
  return gemini as Extract<GeminiEntry, { ok: true }>;
}

function recorder(): HookRecorder {
  const hooks = new HookRecorder();
  cleanups.push(() => hooks.cleanup());
  return hooks;
}

async function run(entry: Extract<GeminiEntry, { ok: true }>, options: GeminiRunOptions): Promise<GeminiRun> {
  const result = await runGemini(entry, options);
  cleanups.push(() => cleanupGeminiRun(result));
  expect(result.timedOut, `gemini -p timed out\nstderr: ${result.stderr}`).toBe(false);
  expect(result.exitCode, `gemini -p failed\nstderr: ${result.stderr}\nstdout: ${result.stdout.slice(-2000)}`).toBe(0);
  return result;
}

const writeFile = (file: string) => ({ script: [useTool(SHELL, { command: `echo hookbox-was-here > ${file}` })] });

describe("Gemini CLI (real CLI, mock model) with plain command hooks", () => {
  it("a BeforeTool deny blocks the shell call and the model's next request carries the reason", async (ctx) => {
    const entry = requireGemini(ctx);
    const hooks = recorder().answer("BeforeTool", { stdout: { decision: "deny", reason: DENY_REASON } });
    const result = await run(entry, {
      prompt: "clean up",
      model: writeFile("denied.txt"),
      hooks: [{ events: GEMINI_EVENTS, command: hooks.command }],
    });

    expect(existsSync(join(result.projectDir, "denied.txt")), "the denied command ran").toBe(false);
    const next = result.model.resultOf(SHELL);
    expect(next?.turn).toBe(1);
    expect(next?.response).toEqual({ error: `Tool execution blocked: ${DENY_REASON}` });
    expect(result.events.find((event) => event.type === "tool_result")).toMatchObject({ status: "error", error: { type: "policy_violation" } });
    expect(hooks.events()).not.toContain("AfterTool");
    expect(hooks.calls().find((call) => call.event === "BeforeTool")?.payload).toMatchObject({
      tool_name: SHELL,
      tool_input: { command: "echo hookbox-was-here > denied.txt" },
    });
  });

  it("a Claude-shaped deny alone does not block Gemini; the cross-agent answer does", async (ctx) => {
    const entry = requireGemini(ctx);
    const claudeDeny = { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: DENY_REASON };
    const claudeOnly = recorder().answer("BeforeTool", { stdout: { hookSpecificOutput: claudeDeny } });
    const ignored = await run(entry, {
      prompt: "write",
      model: writeFile("ran.txt"),
      hooks: [{ events: ["BeforeTool"], command: claudeOnly.command }],
    });
    expect(existsSync(join(ignored.projectDir, "ran.txt")), "real-clients.md: Gemini ignores permissionDecision").toBe(true);

    const both = recorder().answer("BeforeTool", { stdout: { decision: "block", reason: DENY_REASON, hookSpecificOutput: claudeDeny } });
    const blocked = await run(entry, { prompt: "write", model: writeFile("ran.txt"), hooks: [{ events: ["BeforeTool"], command: both.command }] });
    expect(existsSync(join(blocked.projectDir, "ran.txt"))).toBe(false);
    expect(blocked.model.resultOf(SHELL)?.response).toEqual({ error: `Tool execution blocked: ${DENY_REASON}` });
  });

  it("additionalContext from SessionStart, BeforeAgent and AfterTool reaches the model", async (ctx) => {
    const entry = requireGemini(ctx);
    const context = (event: string, text: string) => ({ stdout: { hookSpecificOutput: { hookEventName: event, additionalContext: text } } });
    const hooks = recorder()
      .answer("SessionStart", context("SessionStart", "CTX_FROM_SessionStart"))
      .answer("BeforeAgent", context("BeforeAgent", "CTX_FROM_BeforeAgent <b>"))
      .answer("AfterTool", context("AfterTool", "CTX_FROM_AfterTool"));
    const result = await run(entry, {
      prompt: "look around",
      model: { script: [useTool(SHELL, { command: "echo listing" })] },
      hooks: [{ events: GEMINI_EVENTS, command: hooks.command }],
    });

    const userParts = (result.model.turns()[0]?.contents.at(-1)?.parts ?? []).map((part) => part.text);
    // SessionStart context is prepended to the headless prompt; BeforeAgent's is its own part, HTML-escaped.
    expect(userParts).toContain("<hook_context>CTX_FROM_SessionStart</hook_context>\n\nlook around");
    expect(userParts).toContain("<hook_context>CTX_FROM_BeforeAgent &lt;b&gt;</hook_context>");
    expect(String(result.model.resultOf(SHELL)?.response.output)).toMatch(/listing[\s\S]*<hook_context>CTX_FROM_AfterTool<\/hook_context>$/);
  });

  it("with an allowing hook the shell tool really runs, and the five events fire in order", async (ctx) => {
    const entry = requireGemini(ctx);
    const hooks = recorder().answer("BeforeTool", { stdout: { decision: "allow" } });
    const result = await run(entry, {
      prompt: "write the file",
      model: writeFile("allowed.txt"),
      hooks: [{ events: GEMINI_EVENTS, command: hooks.command, matcher: SHELL }],
    });

    expect(readFileSync(join(result.projectDir, "allowed.txt"), "utf8")).toBe("hookbox-was-here\n");
    expect(result.events.find((event) => event.type === "tool_result")).toMatchObject({ status: "success" });
    expect(hooks.events()).toEqual(["SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent"]);
    const byEvent = Object.fromEntries(hooks.calls().map((call) => [call.event, call.payload]));
    const common = ["cwd", "hook_event_name", "session_id", "timestamp", "transcript_path"];
    const keys = (event: string) => Object.keys(byEvent[event] ?? {}).sort();
    expect(keys("SessionStart")).toEqual([...common, "source"].sort());
    expect(keys("BeforeAgent")).toEqual([...common, "prompt"].sort());
    expect(keys("BeforeTool")).toEqual([...common, "tool_input", "tool_name"].sort());
    expect(keys("AfterTool")).toEqual([...common, "tool_input", "tool_name", "tool_response"].sort());
    expect(keys("AfterAgent")).toEqual([...common, "prompt", "prompt_response", "stop_hook_active"].sort());
    expect(byEvent.AfterTool).toMatchObject({ tool_response: { returnDisplay: "" } });
    expect(byEvent.AfterAgent).toMatchObject({ prompt: "write the file", stop_hook_active: false });
    expect(hooks.calls()[0]?.env).toMatchObject({ GEMINI_PROJECT_DIR: result.projectDir, CLAUDE_PROJECT_DIR: result.projectDir });
    // Gemini's env sanitizing does not remove its own API key from hooks.
    expect(hooks.calls()[0]?.envNames).toContain("GEMINI_API_KEY");
  });
});
