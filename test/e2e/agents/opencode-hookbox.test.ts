// The real opencode (offline, mock Chat Completions API) with Hookbox as a plugin
// (opencode-plugin.ts) that calls `hookbox emit --agent native`, with the standard guards on and a
// project hook injecting context — once in emit's own process, once through a daemon. Skipped,
// saying why, when opencode is not installed.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../../helpers/binary.ts";
import { EVALUATION_MODES, clientSuite, expectFinished } from "./client-suite.ts";
import { contextMarker, daemonEvents, hookSettingsFor, witnessedEvents } from "./hookbox-setup.ts";
import { requestText, useTool } from "./mock-openai.ts";
import { runOpencode, type OpencodeRun } from "./opencode.ts";
import type { OpenAIClientOptions } from "./openai-client-run.ts";
import type { AgentWorkspace } from "./workspace.ts";

const INSTALL = hookSettingsFor("opencode", BUILT_BINARY);
const suite = clientSuite("opencode", ["opencode-plugin"]);

async function run(binary: string, ws: AgentWorkspace, options: Omit<OpenAIClientOptions, "install">): Promise<OpencodeRun> {
  const result = await runOpencode(binary, ws, { install: INSTALL, ...options });
  expectFinished(result, "opencode run");
  return result;
}

describe.each(EVALUATION_MODES)("opencode with the Hookbox plugin, evaluated %s", (_mode, withDaemon) => {
  it("guard-secrets blocks a .env write through bash and through the write tool; the model's next requests carry the reasons", async (ctx) => {
    const binary = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    const result = await run(binary, ws, {
      prompt: "store the key",
      model: {
        script: [
          useTool("bash", { command: "echo API_KEY=leaked > .env && echo wrote", description: "store" }, "call_env_bash"),
          useTool("write", { filePath: join(ws.project, ".env"), content: "API_KEY=leaked\n" }, "call_env_write"),
        ],
      },
    });
    expect(existsSync(join(ws.project, ".env")), "the .env was written").toBe(false);
    expect(result.model.resultOf("call_env_bash")?.output.text).toMatch(/guard-secrets: This command writes to \.env/);
    expect(result.model.resultOf("call_env_write")?.output.text).toMatch(/guard-secrets: Write on \S+\/\.env: blocked/);
    if (withDaemon) expect((await daemonEvents(ws)).PreToolUse).toBeGreaterThanOrEqual(2);
  });

  it("an allowed command really runs, its output and the project hook's context reach the model", async (ctx) => {
    const binary = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    const result = await run(binary, ws, { prompt: "write the file", model: { script: [useTool("bash", { command: "echo hookbox-was-here > allowed.txt && echo wrote", description: "write" }, "call_allowed")] } });
    expect(readFileSync(join(ws.project, "allowed.txt"), "utf8")).toBe("hookbox-was-here\n");
    const next = result.model.resultOf("call_allowed");
    expect(next?.output.text).toMatch(/^wrote\n/);
    const first = requestText(result.model.turns()[0]!);
    expect(first).toContain(contextMarker("SessionStart"));
    expect(first).toContain(contextMarker("UserPromptSubmit"));
    expect(next?.output.text).toContain(contextMarker("PostToolUse"));
    expect(witnessedEvents(ws)).toEqual(expect.arrayContaining(["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse"]));
  });
});
