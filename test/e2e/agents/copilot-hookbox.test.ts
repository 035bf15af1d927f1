// The real GitHub Copilot CLI (offline mode, mock Chat Completions API) running
// `hookbox emit <event> --agent copilot` from ~/.copilot/hooks/, with the standard guards on and a
// project hook injecting context — once in emit's own process, once through a daemon. Skipped,
// saying why, when Copilot CLI is not installed.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../../helpers/binary.ts";
import { EVALUATION_MODES, clientSuite, expectFinished } from "./client-suite.ts";
import { runCopilot, type CopilotRun } from "./copilot-cli.ts";
import { contextMarker, daemonEvents, installAgent, witnessedEvents } from "./hookbox-setup.ts";
import { CUSTOM_INPUT, requestText, useTool } from "./mock-openai.ts";
import type { OpenAIClientOptions } from "./openai-client-run.ts";
import type { AgentWorkspace } from "./workspace.ts";

const ENV_PATCH = "*** Begin Patch\n*** Add File: .env\n+API_KEY=leaked\n*** End Patch\n";

const INSTALL = installAgent("copilot", BUILT_BINARY);
const suite = clientSuite("copilot");

async function run(binary: string, ws: AgentWorkspace, options: Omit<OpenAIClientOptions, "install">): Promise<CopilotRun> {
  const result = await runCopilot(binary, ws, { install: INSTALL, ...options });
  expectFinished(result, "copilot -p");
  return result;
}

describe.each(EVALUATION_MODES)("Copilot CLI with Hookbox's hooks, evaluated %s", (_mode, withDaemon) => {
  it("guard-secrets blocks a .env write through bash, and the model's next request carries the reason", async (ctx) => {
    const binary = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    const result = await run(binary, ws, {
      prompt: "store the key",
      model: { script: [useTool("bash", { command: "echo API_KEY=leaked > .env && echo wrote", description: "store" }, "call_env_bash")] },
    });
    expect(existsSync(join(ws.project, ".env")), "the .env was written").toBe(false);
    expect(result.model.resultOf("call_env_bash")?.output.text).toMatch(/^Denied by preToolUse hook: guard-secrets: This command writes to \.env/);
    if (withDaemon) expect((await daemonEvents(ws)).PreToolUse).toBeGreaterThan(0);
  });

  it("guard-secrets blocks a .env created through apply_patch (free-form input, not JSON)", async (ctx) => {
    const binary = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    const result = await run(binary, ws, {
      prompt: "store the key",
      model: { script: [useTool("apply_patch", { [CUSTOM_INPUT]: ENV_PATCH }, "call_env_patch")] },
    });
    expect(existsSync(join(ws.project, ".env")), "the .env was written").toBe(false);
    expect(result.model.resultOf("call_env_patch")?.output.text).toMatch(/^Denied by preToolUse hook: guard-secrets: /);
  });

  it("an allowed command really runs, its output and the project hook's context reach the model", async (ctx) => {
    const binary = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    const result = await run(binary, ws, {
      prompt: "write the file",
      model: { script: [useTool("bash", { command: "echo hookbox-was-here > allowed.txt && echo wrote", description: "write" }, "call_allowed")] },
    });
    expect(readFileSync(join(ws.project, "allowed.txt"), "utf8")).toBe("hookbox-was-here\n");
    const next = result.model.resultOf("call_allowed");
    expect(next?.output.text).toMatch(/^wrote\n/);
    const first = requestText(result.model.turns()[0]!);
    expect(first).toContain(contextMarker("SessionStart"));
    expect(first).toContain(contextMarker("UserPromptSubmit"));
    expect(requestText(next!.request)).toContain(contextMarker("PostToolUse"));
    expect(witnessedEvents(ws)).toEqual(
      expect.arrayContaining(["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"]),
    );
  });
});
