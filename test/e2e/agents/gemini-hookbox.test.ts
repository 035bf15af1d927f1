// The real Gemini CLI (offline, mock model) with the entries `hookbox install-agent gemini`
// writes (`hookbox emit <Event> --agent gemini` for every event Hookbox decodes), the standard
// guards on and a project hook injecting context — once in emit's own process, once through a
// daemon. Skipped, saying why, when the CLI cannot run here.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../../helpers/binary.ts";
import { EVALUATION_MODES, clientSuite, expectFinished } from "./client-suite.ts";
import { findGeminiCli, runGeminiIn, type GeminiEntry, type GeminiRun, type GeminiWorkspaceRunOptions } from "./gemini-cli.ts";
import { contextMarker, daemonEvents, installAgent, witnessedEvents } from "./hookbox-setup.ts";
import { useTool } from "./mock-gemini.ts";
import type { AgentWorkspace } from "./workspace.ts";

const SHELL = "run_shell_command";

/** The bundle's path stands for the client (runGeminiIn runs it with this Node). */
const suite = clientSuite("gemini", [], () => {
  const entry = findGeminiCli();
  return entry.ok ? { ok: true, path: entry.args[0] as string, version: entry.version } : entry;
});

async function run(bundle: string, ws: AgentWorkspace, options: Omit<GeminiWorkspaceRunOptions, "install">): Promise<GeminiRun> {
  const entry: Extract<GeminiEntry, { ok: true }> = { ok: true, command: process.execPath, args: [bundle], version: "" };
  const result = await runGeminiIn(entry, ws, { install: installAgent("gemini", BUILT_BINARY), timeoutMs: 90_000, ...options });
  expectFinished(result, "gemini -p");
  return result;
}

describe.each(EVALUATION_MODES)("Gemini CLI with the entries `hookbox install-agent gemini` writes, evaluated %s", (_mode, withDaemon) => {
  it("guard-secrets blocks a .env write through the shell, and the model sees the reason", async (ctx) => {
    const bundle = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    const result = await run(bundle, ws, {
      prompt: "store the key",
      model: { script: [useTool(SHELL, { command: "echo API_KEY=leaked > .env && echo wrote" })] },
    });
    expect(existsSync(join(ws.project, ".env")), "the .env was written").toBe(false);
    expect(result.model.resultOf(SHELL)?.response).toEqual({
      error: expect.stringMatching(/^Tool execution blocked: guard-secrets: This command writes to \.env/),
    });
    if (withDaemon) expect((await daemonEvents(ws)).PreToolUse).toBeGreaterThan(0);
  });

  it("an allowed shell command really runs, its output and the project hook's context reach the model", async (ctx) => {
    const bundle = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    const result = await run(bundle, ws, {
      prompt: "write the file",
      model: { script: [useTool(SHELL, { command: "echo hookbox-was-here > allowed.txt && echo wrote" })] },
    });
    expect(readFileSync(join(ws.project, "allowed.txt"), "utf8")).toBe("hookbox-was-here\n");
    const first = JSON.stringify(result.model.turns()[0]);
    expect(first).toContain(contextMarker("SessionStart"));
    expect(first).toContain(contextMarker("UserPromptSubmit"));
    const output = JSON.stringify(result.model.resultOf(SHELL)?.response);
    expect(output).toContain("wrote");
    expect(output).toContain(contextMarker("PostToolUse"));
    // Gemini's SessionStart, BeforeAgent, BeforeTool, AfterTool, AfterAgent, in Hookbox's names.
    expect(witnessedEvents(ws)).toEqual(expect.arrayContaining(["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"]));
    if (withDaemon) expect(Object.keys(await daemonEvents(ws))).toEqual(expect.arrayContaining(["SessionStart", "PreToolUse", "PostToolUse"]));
  });
});
