import { describe, expect, it } from "vitest";
import { WIRE_VERSION, type Decision } from "../../src/core/events/types.ts";
import { hookProcessOutput, PROTOCOLS } from "../../src/agents/protocols.ts";
import { claudeReads, claudeRejects } from "./helpers/clients/claude-code.ts";
import { geminiReads } from "./helpers/clients/gemini-cli.ts";
import { capturedRuns, hintFor, payloadById, type CapturedRun } from "./helpers/payloads.ts";
import { stdoutJson } from "./helpers/purity.ts";

/**
 * The captured runs (test/fixtures/agents/*\/index.json) record a hook's answer and what the real
 * Claude Code 2.1.330 or Gemini CLI 0.61.0 did with it. Hookbox's answer to the same event must
 * be one of those the client was seen to obey — byte for byte where possible.
 */
function run(dir: "claude-code" | "gemini-cli", file: string): CapturedRun {
  const found = capturedRuns(dir).find((entry) => entry.file === file);
  if (!found) throw new Error(`no captured run for ${dir}/${file}`);
  return found;
}

function decision(fields: Partial<Decision>): Decision {
  return {
    v: WIRE_VERSION,
    event_id: "e",
    event_type: "",
    decision: "allow",
    context_injections: [],
    user_messages: [],
    continue: true,
    runs: [],
    ...fields,
  };
}

function answer(agent: "claude" | "gemini", dir: "claude-code" | "gemini-cli", file: string, fields: Partial<Decision>) {
  const item = payloadById(`${dir}/${file}`);
  const event = PROTOCOLS[agent].decode(item.payload, hintFor(item));
  return { event, output: PROTOCOLS[agent].encode(decision({ event_type: event.event_type, ...fields }), event), captured: run(dir, file) };
}

describe("answers Claude Code 2.1.330 was seen to obey", () => {
  it("deny on PreToolUse is the portable answer that blocked the tool (case portable-deny)", () => {
    const { output, captured } = answer("claude", "claude-code", "PreToolUse-22.json", { decision: "deny", reason: "PORTABLE_DENY" });
    expect(captured.case).toBe("portable-deny");
    expect(stdoutJson(output)).toEqual(JSON.parse(captured.hook_stdout));
    expect(output.exitCode).toBe(0);
  });

  it("ask on PreToolUse (case json-ask-bash)", () => {
    const { output, captured } = answer("claude", "claude-code", "PreToolUse-4.json", { decision: "ask", reason: "ASK_BY_JSON: please confirm" });
    expect(stdoutJson(output)).toEqual(JSON.parse(captured.hook_stdout));
  });

  it("a deny at Stop keeps Claude going with the reason (case stop-block-text)", () => {
    const { output, captured } = answer("claude", "claude-code", "Stop-8.json", {
      decision: "deny",
      reason: "STOP_BLOCKED: please double-check your work",
    });
    expect(stdoutJson(output)).toEqual(JSON.parse(captured.hook_stdout));
  });

  it.each([
    ["SessionStart-7.json", "SessionStart"],
    ["UserPromptSubmit-7.json", "UserPromptSubmit"],
    ["PreToolUse-7.json", "PreToolUse"],
    ["PostToolUse-3.json", "PostToolUse"],
  ])("context and a user message on %s reached the model and the user (case context-bash)", (file, event) => {
    const { output, captured } = answer("claude", "claude-code", file, {
      context_injections: [{ hook_id: "h", role: "system", content: `CTX_MARKER_${event}` }],
      user_messages: [{ hook_id: "h", level: "info", message: `SYSMSG_${event}` }],
    });
    expect(stdoutJson(output)).toEqual(JSON.parse(captured.hook_stdout));
  });

  it("deny on PermissionRequest (case sdk-permreq-deny)", () => {
    const { output, captured } = answer("claude", "claude-code", "PermissionRequest-2.json", {
      decision: "deny",
      reason: "PERMREQ_DENIED: not on the allow list",
    });
    expect(stdoutJson(output)).toEqual(JSON.parse(captured.hook_stdout));
  });

  it("continue:false (case continue-false-pretooluse: the tool ran, then the session ended)", () => {
    const { output, captured } = answer("claude", "claude-code", "PreToolUse-15.json", { continue: false, stop_reason: "STOP_REASON_X" });
    expect(stdoutJson(output)).toEqual(JSON.parse(captured.hook_stdout));
  });

  it("the model of Claude rejects what Claude rejected: Gemini's decision word (case invalid-decision-value-fails-open)", () => {
    const captured = run("claude-code", "PreToolUse-21.json");
    expect(captured.case).toBe("invalid-decision-value-fails-open");
    expect(claudeRejects(JSON.parse(captured.hook_stdout), "PreToolUse")).toBeDefined();
  });
});

describe("answers Gemini CLI 0.61.0 was seen to obey", () => {
  it("deny on BeforeTool is the decision word that blocked the tool (case json-block-word)", () => {
    const { output, captured } = answer("gemini", "gemini-cli", "BeforeTool-5.json", { decision: "deny", reason: "BLOCK_WORD" });
    expect(captured.case).toBe("json-block-word");
    expect(stdoutJson(output)).toEqual(JSON.parse(captured.hook_stdout));
  });

  it("Claude's deny is the portable answer that also blocked Gemini (case portable-deny): a misdetected dialect still blocks", () => {
    const captured = run("gemini-cli", "BeforeTool-7.json");
    const item = payloadById("claude-code/PreToolUse-22.json");
    const event = PROTOCOLS.claude.decode(item.payload, hintFor(item));
    const output = PROTOCOLS.claude.encode(decision({ event_type: "PreToolUse", decision: "deny", reason: "PORTABLE_DENY" }), event);
    expect(stdoutJson(output)).toEqual(JSON.parse(captured.hook_stdout));
    expect(geminiReads(hookProcessOutput(output), "BeforeTool").blocked).toBe("PORTABLE_DENY");
  });

  it('Gemini\'s deny would also block Claude: "block" is valid to both, unlike Gemini\'s documented "deny"', () => {
    const { output } = answer("gemini", "gemini-cli", "BeforeTool-1.json", { decision: "deny", reason: "R" });
    expect(claudeRejects(stdoutJson(output), "PreToolUse")).toBeUndefined();
    expect(claudeReads(hookProcessOutput(output), "PreToolUse").blocked).toBe("R");
  });

  it.each([
    ["BeforeAgent-13.json", "BeforeAgent"],
    ["AfterTool-7.json", "AfterTool"],
  ])("context on %s reached the model (case context-beforeagent)", (file, event) => {
    const { output, captured } = answer("gemini", "gemini-cli", file, {
      context_injections: [{ hook_id: "h", role: "system", content: `CTX_MARKER_${event}` }],
    });
    expect(stdoutJson(output)).toEqual(JSON.parse(captured.hook_stdout));
  });

  it("a deny at AfterAgent retries with the reason, like the captured deny (case afteragent-deny-once)", () => {
    const { output, captured } = answer("gemini", "gemini-cli", "AfterAgent-14.json", {
      decision: "deny",
      reason: "AFTERAGENT_RETRY: please double-check your work",
    });
    const seen = { exitCode: captured.hook_exit_code, stdout: captured.hook_stdout, stderr: captured.hook_stderr };
    expect(geminiReads(hookProcessOutput(output), "AfterAgent")).toEqual(geminiReads(seen, "AfterAgent"));
  });

  it("the model of Gemini ignores what Gemini ignored: Claude's permissionDecision alone (case claude-format-deny-ignored)", () => {
    const captured = run("gemini-cli", "BeforeTool-6.json");
    expect(geminiReads({ exitCode: 0, stdout: captured.hook_stdout, stderr: "" }, "BeforeTool").blocked).toBeUndefined();
  });
});
