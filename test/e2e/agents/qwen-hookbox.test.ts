// The real Qwen Code CLI (offline, mock Chat Completions API) with the entries `hookbox
// install-agent qwen --user` writes (`hookbox emit <Event> --agent qwen`), and the same entries
// with --agent taken out, as a user who wired them by hand would: then Hookbox must tell Qwen's
// payloads from Claude's and Gemini's by itself, or its guards (written for Bash and Write) never
// match Qwen's run_shell_command and write_file. Each once in emit's own process, once through a
// daemon. Skipped, saying why, when Qwen Code is not installed.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../../helpers/binary.ts";
import { EVALUATION_MODES, clientSuite, expectFinished } from "./client-suite.ts";
import { contextMarker, daemonEvents, installAgent, witnessedEvents } from "./hookbox-setup.ts";
import { requestText, useTool } from "./mock-openai.ts";
import { runQwen, type QwenRun } from "./qwen-code.ts";
import type { OpenAIClientOptions } from "./openai-client-run.ts";
import type { AgentWorkspace } from "./workspace.ts";

const suite = clientSuite("qwen");

/** The entries as install-agent writes them, and with the dialect left to detection. */
const DIALECTS = [
  ["named (--agent qwen, as install-agent writes it)", false],
  ["auto-detected (--agent taken out)", true],
] as const;
const CASES = DIALECTS.flatMap(([dialect, detect]) => EVALUATION_MODES.map(([mode, withDaemon]) => [dialect, mode, detect, withDaemon] as const));

describe.each(CASES)("Qwen Code with Hookbox's hooks, the dialect %s, evaluated %s", (_dialect, _mode, detect, withDaemon) => {
  const run = async (binary: string, ws: AgentWorkspace, options: Omit<OpenAIClientOptions, "install">): Promise<QwenRun> => {
    const result = await runQwen(binary, ws, { install: installAgent("qwen", BUILT_BINARY, { detect }), ...options });
    expectFinished(result, "qwen -p");
    return result;
  };

  it("guard-secrets blocks write_file on .env, and the model's next request carries the reason", async (ctx) => {
    const binary = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    const result = await run(binary, ws, {
      prompt: "store the key",
      model: { script: [useTool("write_file", { file_path: join(ws.project, ".env"), content: "API_KEY=leaked\n" }, "call_env_write")] },
    });
    expect(existsSync(join(ws.project, ".env")), "the .env was written").toBe(false);
    expect(result.model.resultOf("call_env_write")?.output.text).toMatch(
      /guard-secrets: Write on \S+\/\.env: blocked because dotenv files hold environment secrets/,
    );
    if (withDaemon) expect((await daemonEvents(ws)).PreToolUse).toBeGreaterThan(0);
  });

  it("bash-guard blocks `rm -rf *` in run_shell_command: the project survives", async (ctx) => {
    const binary = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    ws.write("project", { "src/keep.txt": "keep me\n" });
    const result = await run(binary, ws, {
      prompt: "clean up",
      model: { script: [useTool("run_shell_command", { command: "rm -rf *", description: "clean" }, "call_rm")] },
    });
    expect(readFileSync(join(ws.project, "src/keep.txt"), "utf8")).toBe("keep me\n");
    expect(result.model.resultOf("call_rm")?.output.text).toContain("bash-guard blocked `rm -rf *`");
  });

  it("an allowed command really runs, its output and the project hook's context reach the model", async (ctx) => {
    const binary = suite.require(ctx);
    const ws = await suite.workspace(withDaemon);
    const result = await run(binary, ws, {
      prompt: "write the file",
      model: {
        script: [
          useTool("run_shell_command", { command: "echo hookbox-was-here > allowed.txt && echo wrote", description: "write" }, "call_allowed"),
        ],
      },
    });
    expect(readFileSync(join(ws.project, "allowed.txt"), "utf8")).toBe("hookbox-was-here\n");
    const next = result.model.resultOf("call_allowed");
    expect(next?.output.text).toContain("Output: wrote");
    const first = requestText(result.model.turns()[0]!);
    expect(first).toContain(contextMarker("SessionStart"));
    expect(first).toContain(contextMarker("UserPromptSubmit"));
    expect(requestText(next!.request)).toContain(contextMarker("PostToolUse"));
    // Qwen Code 0.24.4 fires no SessionEnd in -p mode.
    expect(witnessedEvents(ws)).toEqual(["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"]);
  });
});
