// The real Claude Agent SDK (its bundled Claude Code, offline against MockAnthropic) with Hookbox two
// ways: the project's .claude/settings.json hooks (`hookbox emit … --agent claude`, loaded with
// `settingSources: ["project"]`), and in-process hook callbacks that call `hookbox emit` — each
// evaluated in emit's own process and through a daemon. Skipped, saying why, when the SDK is not installed.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../../helpers/binary.ts";
import { runAgentSdk, type SdkHooks, type SdkRun, type SdkRunOptions } from "./claude-agent-sdk.ts";
import { EVALUATION_MODES, clientSuite } from "./client-suite.ts";
import { contextMarker, daemonEvents, hookboxCallback, installAgent, witnessedEvents } from "./hookbox-setup.ts";
import { systemMessageText, toolResultText, useTool } from "./mock-anthropic.ts";
import type { AgentWorkspace } from "./workspace.ts";

const ENV_WRITE = "toolu_01HOOKBOXSDKENV0000000001";
const ALLOWED = "toolu_01HOOKBOXSDKALLOWED00001";

const suite = clientSuite("claude-agent-sdk");

/** The model asks to write .env, then runs an allowed command; the script then echoes the last tool result. */
function script(ws: AgentWorkspace): SdkRunOptions["model"] {
  return {
    script: [
      useTool("Write", { file_path: join(ws.project, ".env"), content: "API_KEY=leaked\n" }, ENV_WRITE),
      useTool("Bash", { command: "echo hookbox-was-here > allowed.txt && echo wrote", description: "write" }, ALLOWED),
    ],
  };
}

async function run(sdkDir: string, ws: AgentWorkspace, options: Omit<SdkRunOptions, "prompt" | "model">): Promise<SdkRun> {
  const result = await runAgentSdk(sdkDir, ws, { prompt: "store the key, then write the file", model: script(ws), ...options });
  expect(result.timedOut, "the query timed out").toBe(false);
  expect(result.result?.subtype, JSON.stringify(result.result)).toBe("success");
  return result;
}

/**
 * Blocked, executed, context reached: what every run below must show. SessionStart only from
 * settings hooks: the SDK (0.3.331) never calls an in-process SessionStart callback.
 */
async function expectGuardedRun(result: SdkRun, ws: AgentWorkspace, withDaemon: boolean, sessionStart: boolean): Promise<void> {
  expect(existsSync(join(ws.project, ".env")), "the .env was written").toBe(false);
  const denied = result.model.resultOf(ENV_WRITE);
  expect(denied?.result.is_error).toBe(true);
  expect(toolResultText(denied!.result)).toMatch(/guard-secrets: Write on \S+\/\.env: blocked because dotenv files hold environment secrets/);
  expect(readFileSync(join(ws.project, "allowed.txt"), "utf8")).toBe("hookbox-was-here\n");
  const ran = result.model.resultOf(ALLOWED);
  expect(toolResultText(ran!.result)).toBe("wrote");
  const first = systemMessageText(result.model.turns()[0]!);
  if (sessionStart) expect(first).toContain(contextMarker("SessionStart"));
  expect(first).toContain(contextMarker("UserPromptSubmit"));
  expect(systemMessageText(result.model.turns().at(-1)!)).toContain(contextMarker("PostToolUse"));
  const witnessed = ["UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"];
  expect(witnessedEvents(ws)).toEqual(sessionStart ? expect.arrayContaining(["SessionStart", ...witnessed]) : witnessed);
  if (withDaemon) expect((await daemonEvents(ws)).PreToolUse).toBeGreaterThanOrEqual(2);
}

describe.each(EVALUATION_MODES)("Claude Agent SDK with Hookbox, evaluated %s", (_mode, withDaemon) => {
  it("loads the hooks .claude/settings.json holds (settingSources: project): .env blocked, allowed command run, context reached", async (ctx) => {
    const sdkDir = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    const result = await run(sdkDir, ws, { install: installAgent("claude", BUILT_BINARY), settingSources: ["project"] });
    await expectGuardedRun(result, ws, withDaemon, true);
  });

  it("in-process hook callbacks calling hookbox emit: .env blocked, allowed command run, context reached (SessionStart callbacks are never called)", async (ctx) => {
    const sdkDir = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    const hooks: SdkHooks = Object.fromEntries(
      ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"].map((event) => [
        event,
        [{ hooks: [hookboxCallback(BUILT_BINARY, ws, event)], ...(event === "PreToolUse" && { onFailure: "block" as const }) }],
      ]),
    );
    // No settings files at all: only the callbacks can have blocked the write.
    const result = await run(sdkDir, ws, { settingSources: [], hooks });
    await expectGuardedRun(result, ws, withDaemon, false);
  });
});
