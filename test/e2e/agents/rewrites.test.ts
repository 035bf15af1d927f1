// A transform's rewrite, in every real client that runs `hookbox emit` (opencode's plugin has its
// own case in opencode-hookbox.test.ts): with the entries `install-agent <agent>` writes and a user
// hook granted `modify`, the model asks for a command that writes original.txt and the hook
// rewrites it into one that writes rewritten.txt. The agents that apply a rewrite must run the
// rewritten command and never the original; Qwen Code 0.24.4 applies none, so Hookbox refuses the
// rewrite and the original — which the checks judged — runs (docs/agents.md says which is which).
// Each client once, evaluated in emit's own process; skipped, saying why, when it is not installed.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT_BINARY } from "../../helpers/binary.ts";
import { findClaudeBinary, runClaudeIn } from "./claude-code.ts";
import { clientSuite, expectFinished } from "./client-suite.ts";
import { runCodex } from "./codex-cli.ts";
import { runCopilot } from "./copilot-cli.ts";
import { findGeminiCli, runGeminiIn } from "./gemini-cli.ts";
import { auditRecords, installAgent } from "./hookbox-setup.ts";
import { useTool as anthropicTool } from "./mock-anthropic.ts";
import { useTool as geminiTool } from "./mock-gemini.ts";
import { useTool as openaiTool } from "./mock-openai.ts";
import { runQwen } from "./qwen-code.ts";
import type { AgentWorkspace } from "./workspace.ts";

const ORIGINAL = "echo original > original.txt && echo original";
const REWRITTEN = "echo rewritten > rewritten.txt && echo rewritten";

/** In the user's hook directory (the operator's tier), so its `modify` grant holds as declared. Codex names the field `cmd` in its model call, `command` in its hook payload. */
const REWRITE_HOOK = `id: rewrite
events: [PreToolUse]
match: { tool: Bash }
permissions: { modify: [tool_input.command] }
handler: { code: "export default (e) => String(e.tool_input.command).includes('original') ? { action: 'modify', data: { ...e.tool_input, command: '${REWRITTEN}' } } : {}" }
`;

const suites = {
  claude: clientSuite("claude", [], findClaudeBinary),
  gemini: clientSuite("gemini", [], () => {
    const entry = findGeminiCli();
    return entry.ok ? { ok: true, path: entry.args[0] as string, version: entry.version } : entry;
  }),
  codex: clientSuite("codex"),
  copilot: clientSuite("copilot"),
  qwen: clientSuite("qwen"),
};

async function workspace(agent: keyof typeof suites): Promise<AgentWorkspace> {
  const ws = await suites[agent].workspace(false);
  ws.write("home", { ".config/hookbox/hooks/rewrite/hook.yaml": REWRITE_HOOK });
  return ws;
}

function ran(ws: AgentWorkspace): { readonly original: boolean; readonly rewritten: boolean } {
  return { original: existsSync(join(ws.project, "original.txt")), rewritten: existsSync(join(ws.project, "rewritten.txt")) };
}

describe("a transform's rewrite in the real clients", () => {
  it("Claude Code runs the rewritten command (updatedInput), never the original", async (ctx) => {
    const binary = suites.claude.require(ctx);
    const ws = await workspace("claude");
    const result = await runClaudeIn(binary, ws, {
      prompt: "write the file",
      install: installAgent("claude", BUILT_BINARY),
      timeoutMs: 90_000,
      model: { script: [anthropicTool("Bash", { command: ORIGINAL, description: "write" }, "toolu_01HOOKBOXREWRITE000000001")] },
    });
    expectFinished(result, "claude -p");
    expect(ran(ws)).toEqual({ original: false, rewritten: true });
  });

  it("Gemini CLI runs the rewritten command (hookSpecificOutput.tool_input) and tells the model it was modified", async (ctx) => {
    const bundle = suites.gemini.require(ctx);
    const ws = await workspace("gemini");
    const result = await runGeminiIn({ ok: true, command: process.execPath, args: [bundle], version: "" }, ws, {
      prompt: "write the file",
      install: installAgent("gemini", BUILT_BINARY),
      timeoutMs: 90_000,
      model: { script: [geminiTool("run_shell_command", { command: ORIGINAL })] },
    });
    expectFinished(result, "gemini -p");
    expect(ran(ws)).toEqual({ original: false, rewritten: true });
    expect(JSON.stringify(result.model.resultOf("run_shell_command")?.response)).toContain("Tool input parameters were modified by a hook");
  });

  it("Codex runs the rewritten command (updatedInput beside permissionDecision allow), never the original", async (ctx) => {
    const binary = suites.codex.require(ctx);
    const ws = await workspace("codex");
    const result = await runCodex(binary, ws, {
      prompt: "write the file",
      install: installAgent("codex", BUILT_BINARY),
      model: { script: [openaiTool("exec_command", { cmd: ORIGINAL }, "call_rewrite")] },
    });
    expectFinished(result, "codex exec");
    expect(ran(ws)).toEqual({ original: false, rewritten: true });
  });

  it("Copilot CLI runs the rewritten command (modifiedArgs), never the original", async (ctx) => {
    const binary = suites.copilot.require(ctx);
    const ws = await workspace("copilot");
    const result = await runCopilot(binary, ws, {
      prompt: "write the file",
      install: installAgent("copilot", BUILT_BINARY),
      model: { script: [openaiTool("bash", { command: ORIGINAL, description: "write" }, "call_rewrite")] },
    });
    expectFinished(result, "copilot -p");
    expect(ran(ws)).toEqual({ original: false, rewritten: true });
  });

  it("Qwen Code applies no rewrite: Hookbox refuses it, so the original command is what the checks judged and what runs", async (ctx) => {
    const binary = suites.qwen.require(ctx);
    const ws = await workspace("qwen");
    const result = await runQwen(binary, ws, {
      prompt: "write the file",
      install: installAgent("qwen", BUILT_BINARY),
      model: { script: [openaiTool("run_shell_command", { command: ORIGINAL, description: "write" }, "call_rewrite")] },
    });
    expectFinished(result, "qwen -p");
    expect(ran(ws)).toEqual({ original: true, rewritten: false });
    const refused = auditRecords(ws).find((record) => record.hook_id === "rewrite" && record.event_type === "PreToolUse");
    expect(JSON.stringify(refused)).toMatch(/modify refused \(the input stays as it was\): tool_input\.command: the agent cannot apply a rewrite/);
  });
});
