import { describe, expect, it } from "vitest";
import { DETECTION_ORDER, FALLBACK_AGENT, PROTOCOLS, detectAgent } from "../../src/agents/protocols.ts";
import { allPayloads } from "./helpers/payloads.ts";

describe("auto-detection (`hookbox emit` without --agent)", () => {
  it("picks the right dialect for every captured fixture and research example", () => {
    const wrong = allPayloads()
      .map((item) => ({ id: item.id, expected: item.detectsAs, detected: detectAgent(item.payload) }))
      .filter(({ expected, detected }) => expected !== detected);
    expect(wrong).toEqual([]);
  });

  it("asks the most specific dialect first and Claude's, the lingua franca, last", () => {
    expect(DETECTION_ORDER.map((protocol) => protocol.name)).toEqual(["native", "cursor", "qwen", "copilot", "codex", "gemini", "claude"]);
  });

  it.each([
    [
      "Claude's MessageDisplay, which carries a turn_id like Codex",
      { session_id: "s", hook_event_name: "MessageDisplay", turn_id: "t", prompt_id: "p", delta: "x" },
      "claude",
    ],
    [
      "Codex with a null transcript_path",
      { session_id: "s", hook_event_name: "SessionStart", transcript_path: null, cwd: "/p", model: "m", source: "startup" },
      "codex",
    ],
    [
      "Gemini's SessionStart (timestamp and transcript)",
      { session_id: "s", hook_event_name: "SessionStart", timestamp: "2026-01-01T00:00:00Z", transcript_path: "/t", source: "startup" },
      "gemini",
    ],
    [
      "Copilot's VS Code mode SessionStart (timestamp, no transcript)",
      { session_id: "s", hook_event_name: "SessionStart", timestamp: "2026-01-01T00:00:00Z", source: "new" },
      "copilot",
    ],
    ["VS Code's own agent hooks (sessionId + hookEventName)", { sessionId: "s", hookEventName: "PreToolUse", tool_name: "editFiles" }, "claude"],
    ["a native event", { event_type: "task.completed", session_id: "s" }, "native"],
    [
      "Qwen's PreToolUse (Claude's event, Gemini's tool, a timestamp and a permission_mode)",
      {
        session_id: "s",
        hook_event_name: "PreToolUse",
        timestamp: "2026-01-01T00:00:00Z",
        permission_mode: "yolo",
        tool_name: "run_shell_command",
        tool_input: { command: "ls" },
      },
      "qwen",
    ],
    [
      "Qwen's SessionStart (a name Gemini shares, but a permission_mode)",
      {
        session_id: "s",
        hook_event_name: "SessionStart",
        timestamp: "2026-01-01T00:00:00Z",
        transcript_path: "/t",
        permission_mode: "default",
        source: "startup",
      },
      "qwen",
    ],
    [
      "Qwen naming a tool by Claude's name (an MCP tool)",
      {
        session_id: "s",
        hook_event_name: "PreToolUse",
        timestamp: "2026-01-01T00:00:00Z",
        permission_mode: "yolo",
        tool_name: "mcp__db__query",
        tool_input: {},
      },
      "qwen",
    ],
    [
      "Copilot's VS Code mode, which names tools as Claude does",
      { session_id: "s", hook_event_name: "PreToolUse", timestamp: "2026-01-01T00:00:00Z", tool_name: "Bash", tool_input: { command: "ls" } },
      "copilot",
    ],
    [
      "Claude with an MCP tool",
      { session_id: "s", hook_event_name: "PreToolUse", permission_mode: "default", tool_name: "mcp__github__create_issue", tool_input: {} },
      "claude",
    ],
    [
      "Claude's old name for its subagent tool, which Cursor also uses",
      { session_id: "s", hook_event_name: "PreToolUse", tool_name: "Task", tool_input: {} },
      "claude",
    ],
  ])("tells apart %s", (_label, payload, agent) => {
    expect(detectAgent(payload)).toBe(agent);
  });

  it.each([
    [
      "Claude's shape naming Gemini's shell tool",
      {
        session_id: "s",
        hook_event_name: "PreToolUse",
        permission_mode: "default",
        tool_name: "run_shell_command",
        tool_input: { command: "rm -rf *" },
      },
    ],
    [
      "Claude's shape naming Qwen's and Copilot's edit tool",
      { session_id: "s", hook_event_name: "PreToolUse", tool_name: "edit", tool_input: { file_path: ".env" } },
    ],
    [
      "Claude's shape naming Gemini's write tool after the fact",
      { session_id: "s", hook_event_name: "PostToolUse", tool_name: "write_file", tool_input: { file_path: ".env" } },
    ],
    [
      "Codex's shape naming Cursor's shell tool",
      { session_id: "s", turn_id: "t", model: "m", hook_event_name: "PreToolUse", tool_name: "Shell", tool_input: { command: "ls" } },
    ],
    [
      "Gemini's event naming Copilot's shell tool",
      { session_id: "s", hook_event_name: "BeforeTool", timestamp: "2026-01-01T00:00:00Z", tool_name: "bash", tool_input: { command: "ls" } },
    ],
  ])("recognises no dialect in %s: read as the dialect its shape suggests, its tool would meet no guard", (_label, payload) => {
    expect(detectAgent(payload)).toBeUndefined();
  });

  it.each([null, 7, "x", [], {}, { tool_name: "Bash" }])(
    "recognises no dialect in %j (emit then answers by the fail-closed rule, in Claude's form)",
    (payload) => {
      expect(detectAgent(payload)).toBeUndefined();
      expect(PROTOCOLS[FALLBACK_AGENT].name).toBe("claude");
    },
  );
});
