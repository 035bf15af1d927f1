// The real GitHub Copilot CLI (offline mode, mock Chat Completions API) running
// `hookbox emit <event> --agent copilot` from ~/.copilot/hooks/, with the standard guards on and a
// project hook injecting context — once in emit's own process, once through a daemon. Skipped,
// saying why, when Copilot CLI is not installed.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { BUILT_BINARY } from "../../helpers/binary.ts";
import { findClient, type FoundClient } from "./clients.ts";
import { runCopilot, type CopilotRun, type CopilotRunOptions } from "./copilot-cli.ts";
import { contextMarker, daemonEvents, hookSettingsFor, setUpHookbox, startDaemon, witnessedEvents } from "./hookbox-setup.ts";
import { CUSTOM_INPUT, requestText, useTool } from "./mock-openai.ts";
import { AgentWorkspace } from "./workspace.ts";

const ENV_PATCH = "*** Begin Patch\n*** Add File: .env\n+API_KEY=leaked\n*** End Patch\n";

let copilot: FoundClient;
const cleanups: (() => unknown)[] = [];
beforeAll(() => {
  copilot = findClient("copilot");
  if (!copilot.ok) console.warn(`[copilot-hookbox] skipping: ${copilot.reason}`);
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function requireCopilot(ctx: TestContext): string {
  if (!copilot.ok) ctx.skip(copilot.reason);
  return (copilot as Extract<FoundClient, { ok: true }>).path;
}

async function workspace(withDaemon: boolean): Promise<AgentWorkspace> {
  const ws = new AgentWorkspace("hookbox-copilot-e2e-");
  cleanups.push(() => ws.cleanup());
  setUpHookbox(ws);
  if (withDaemon) {
    const daemon = await startDaemon(ws, BUILT_BINARY);
    cleanups.push(() => daemon.stop());
  }
  return ws;
}

async function run(binary: string, ws: AgentWorkspace, options: Omit<CopilotRunOptions, "install">): Promise<CopilotRun> {
  const result = await runCopilot(binary, ws, { install: hookSettingsFor("copilot", BUILT_BINARY), ...options });
  expect(result.timedOut, `copilot timed out\nstderr: ${result.stderr}`).toBe(false);
  expect(result.exitCode, `copilot failed\nstderr: ${result.stderr}`).toBe(0);
  return result;
}

describe.each([
  ["in emit's own process", false],
  ["through a daemon", true],
] as const)("Copilot CLI with Hookbox's hooks, evaluated %s", (_mode, withDaemon) => {
  it("guard-secrets blocks a .env write through bash, and the model's next request carries the reason", async (ctx) => {
    const binary = requireCopilot(ctx);
    const ws = await workspace(withDaemon);
    const result = await run(binary, ws, { prompt: "store the key", model: { script: [useTool("bash", { command: "echo API_KEY=leaked > .env && echo wrote", description: "store" }, "call_env_bash")] } });
    expect(existsSync(join(ws.project, ".env")), "the .env was written").toBe(false);
    expect(result.model.resultOf("call_env_bash")?.output.text).toMatch(/^Denied by preToolUse hook: guard-secrets: This command writes to \.env/);
    if (withDaemon) expect((await daemonEvents(ws)).PreToolUse).toBeGreaterThan(0);
  });

  it("guard-secrets blocks a .env created through apply_patch (free-form input, not JSON)", async (ctx) => {
    const binary = requireCopilot(ctx);
    const ws = await workspace(withDaemon);
    const result = await run(binary, ws, { prompt: "store the key", model: { script: [useTool("apply_patch", { [CUSTOM_INPUT]: ENV_PATCH }, "call_env_patch")] } });
    expect(existsSync(join(ws.project, ".env")), "the .env was written").toBe(false);
    expect(result.model.resultOf("call_env_patch")?.output.text).toMatch(/^Denied by preToolUse hook: guard-secrets: /);
  });

  it("an allowed command really runs, its output and the project hook's context reach the model", async (ctx) => {
    const binary = requireCopilot(ctx);
    const ws = await workspace(withDaemon);
    const result = await run(binary, ws, { prompt: "write the file", model: { script: [useTool("bash", { command: "echo hookbox-was-here > allowed.txt && echo wrote", description: "write" }, "call_allowed")] } });
    expect(readFileSync(join(ws.project, "allowed.txt"), "utf8")).toBe("hookbox-was-here\n");
    const next = result.model.resultOf("call_allowed");
    expect(next?.output.text).toMatch(/^wrote\n/);
    const first = requestText(result.model.turns()[0]!);
    expect(first).toContain(contextMarker("SessionStart"));
    expect(first).toContain(contextMarker("UserPromptSubmit"));
    expect(requestText(next!.request)).toContain(contextMarker("PostToolUse"));
    expect(witnessedEvents(ws)).toEqual(expect.arrayContaining(["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"]));
  });
});
