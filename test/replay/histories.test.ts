import { describe, expect, it } from "vitest";
import { HISTORIES, historyFormatOf, type HistoryFs } from "../../src/agents/histories.ts";
import { PROTOCOLS } from "../../src/agents/protocols.ts";
import { memoryFs } from "../helpers/memory-fs.ts";

/**
 * Each agent's history reader over lines shaped as the real CLIs write them (the real ones are
 * replayed in test/e2e/agents/replay-agents.test.ts): the hook calls it rebuilds decode with the
 * agent's own protocol, blocked calls are marked and get no after-event, and a line it cannot
 * read is a problem at file:line, never a stop.
 */

const jsonl = (lines: readonly unknown[]): string => `${lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n")}\n`;
const noFs: HistoryFs = { readText: async () => "", listDir: async () => [], kind: async () => "missing" };
/** In-memory files as the readers see them. */
const filesFs = (files: Record<string, string>): HistoryFs => ({ ...memoryFs(files), kind: async (path) => (path in files ? "file" : "missing") });

/** Each call as [its event name, its line, whether a hook blocked it in the session]. */
const outline = (read: { calls: readonly { eventName: string; line: number; blockedLive?: string }[] }): [string, number, boolean][] =>
  read.calls.map((c) => [c.eventName, c.line, c.blockedLive !== undefined]);

/** Every call decodes with the agent's protocol, as emit would decode it. */
function decodesAll(calls: readonly { agent: keyof typeof PROTOCOLS; payload: unknown; eventName: string }[]): string[] {
  return calls.map((call) => PROTOCOLS[call.agent].decode(call.payload, { eventName: call.eventName, env: {} }).event_type);
}

describe("Claude Code transcripts", () => {
  const file = "/home/dev/.claude/projects/-home-dev-app/4f1c.jsonl";
  const base = { sessionId: "4f1c", cwd: "/home/dev/app", isSidechain: false };
  const lines = [
    { type: "queue-operation", operation: "enqueue", sessionId: "4f1c", content: "go" },
    { ...base, type: "user", message: { role: "user", content: "go" }, timestamp: "2026-11-20T10:00:00Z", permissionMode: "default" },
    {
      ...base,
      type: "assistant",
      timestamp: "2026-11-20T10:00:01Z",
      message: { id: "m1", content: [{ type: "tool_use", id: "t1", name: "Write", input: { file_path: "/home/dev/app/.env" } }] },
    },
    {
      ...base,
      type: "user",
      message: { content: [{ type: "tool_result", tool_use_id: "t1", is_error: true, content: "PreToolUse:Write hook error: guard-secrets: no" }] },
    },
    {
      ...base,
      type: "assistant",
      timestamp: "2026-11-20T10:00:02Z",
      message: { id: "m2", content: [{ type: "tool_use", id: "t2", name: "Bash", input: { command: "ls" } }] },
    },
    {
      ...base,
      type: "user",
      message: { content: [{ type: "tool_result", tool_use_id: "t2", content: "a b" }] },
      toolUseResult: { stdout: "a b", stderr: "" },
    },
    {
      ...base,
      type: "assistant",
      timestamp: "2026-11-20T10:00:03Z",
      message: { id: "m3", content: [{ type: "tool_use", id: "t3", name: "Bash", input: { command: "false" } }] },
    },
    { ...base, type: "user", message: { content: [{ type: "tool_result", tool_use_id: "t3", is_error: true, content: "Exit code 1" }] } },
    { ...base, type: "assistant", message: { id: "m4", content: [{ type: "text", text: "done" }], stop_reason: "end_turn" } },
    {
      ...base,
      type: "assistant",
      isSidechain: true,
      message: { id: "m5", content: [{ type: "tool_use", id: "t5", name: "Bash", input: { command: "subagent" } }] },
    },
    { type: "crystal-ball", sessionId: "4f1c" },
    '{"parentUuid":"x","type":"assistant","message":{"content":[{"type":"tool_use","id":"t9","name":"Bash","input":{"command":"rm',
  ];

  it("rebuilds SessionStart, the prompt, each tool call and how it went, and the turn's end; skips the subagent's calls", async () => {
    const read = await HISTORIES.claude.read(file, jsonl(lines), noFs);
    expect(outline(read)).toEqual([
      ["SessionStart", 2, false],
      ["UserPromptSubmit", 2, false],
      ["PreToolUse", 3, true],
      ["PreToolUse", 5, false],
      ["PostToolUse", 6, false],
      ["PreToolUse", 7, false],
      ["PostToolUseFailure", 8, false],
      ["Stop", 9, false],
    ]);
    expect(read.calls[2]?.payload).toEqual({
      session_id: "4f1c",
      transcript_path: file,
      cwd: "/home/dev/app",
      permission_mode: "default",
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      tool_input: { file_path: "/home/dev/app/.env" },
      tool_use_id: "t1",
    });
    expect(read.calls[4]?.payload.tool_response).toEqual({ stdout: "a b", stderr: "" });
    expect(decodesAll(read.calls)).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse",
      "PreToolUse",
      "PostToolUse",
      "PreToolUse",
      "PostToolUseFailure",
      "Stop",
    ]);
  });

  it("reports an unknown entry and a torn last line at file:line", async () => {
    const read = await HISTORIES.claude.read(file, jsonl(lines), noFs);
    expect(read.problems).toEqual([
      { file, line: 11, problem: 'unknown entry (type "crystal-ball"): skipped' },
      { file, line: 12, problem: expect.stringMatching(/^truncated \("\{\\"parentUuid.*…"\): skipped$/) },
    ]);
    expect(read.lines).toBe(12);
  });
});

describe("Codex rollouts", () => {
  const file = "/home/dev/.codex/sessions/2026/11/20/rollout-2026-11-20T10-00-00-019a.jsonl";
  const item = (payload: Record<string, unknown>) => ({ timestamp: "2026-11-20T10:00:01Z", type: "response_item", payload });
  const lines = [
    { timestamp: "2026-11-20T10:00:00Z", type: "session_meta", payload: { id: "019a", cwd: "/home/dev/app", cli_version: "0.169.0" } },
    { timestamp: "2026-11-20T10:00:00Z", type: "turn_context", payload: { turn_id: "t-1", cwd: "/home/dev/app", model: "gpt-5.5" } },
    item({
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "<environment_context>\n  <cwd>/x</cwd>\n</environment_context>" }],
    }),
    item({ type: "message", role: "user", content: [{ type: "input_text", text: "tidy up" }] }),
    item({ type: "function_call", name: "exec_command", arguments: '{"cmd":"echo x > .env"}', call_id: "c1" }),
    item({ type: "function_call_output", call_id: "c1", output: "Command blocked by PreToolUse hook: guard-secrets: no. Command: echo x > .env" }),
    item({ type: "function_call", name: "shell", arguments: '{"command":["bash","-lc","git status"]}', call_id: "c2" }),
    item({ type: "function_call_output", call_id: "c2", output: "clean" }),
    item({ type: "custom_tool_call", name: "apply_patch", input: "*** Begin Patch\n*** Add File: a.md\n+x\n*** End Patch\n", call_id: "c3" }),
    item({ type: "function_call", name: "update_plan", arguments: "{}", call_id: "c4" }),
    { timestamp: "2026-11-20T10:00:09Z", type: "event_msg", payload: { type: "task_complete", last_agent_message: "done" } },
    { timestamp: "2026-11-20T10:00:09Z", type: "teleport", payload: {} },
    "not json at all",
    item({ type: "message", role: "user", content: [{ type: "input_text", text: "more" }] }),
  ];

  it("rebuilds Codex's hook payloads: Bash with the command line, apply_patch with the patch, the turn's end", async () => {
    const read = await HISTORIES.codex.read(file, jsonl(lines), noFs);
    expect(read.calls.map((c) => [c.eventName, c.line, c.payload.tool_name ?? null, c.blockedLive !== undefined])).toEqual([
      ["SessionStart", 1, null, false],
      ["UserPromptSubmit", 4, null, false],
      ["PreToolUse", 5, "Bash", true],
      ["PreToolUse", 7, "Bash", false],
      ["PostToolUse", 8, "Bash", false],
      ["PreToolUse", 9, "apply_patch", false],
      ["Stop", 11, null, false],
      ["UserPromptSubmit", 14, null, false],
    ]);
    expect(read.calls[3]?.payload).toMatchObject({ session_id: "019a", turn_id: "t-1", model: "gpt-5.5", tool_input: { command: "git status" } });
    expect(decodesAll(read.calls)).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse",
      "PreToolUse",
      "PostToolUse",
      "PreToolUse",
      "Stop",
      "UserPromptSubmit",
    ]);
    expect(read.problems).toEqual([
      { file, line: 12, problem: 'unknown entry (type "teleport"): skipped' },
      { file, line: 13, problem: 'not JSON ("not json at all"): skipped' },
    ]);
  });

  it("a rollout whose session_meta line is gone: its calls are problems, not calls with no session", async () => {
    const read = await HISTORIES.codex.read(file, jsonl(lines.slice(2)), noFs);
    expect(read.calls).toEqual([]);
    expect(read.problems[0]).toEqual({ file, line: 2, problem: "a call before the session's session_meta line (truncated at its start?): skipped" });
  });
});

describe("Gemini CLI chats", () => {
  const file = "/home/dev/.gemini/tmp/app/chats/session-2026-11-20T10-00-5c2e.jsonl";
  const fs = filesFs({ "/home/dev/.gemini/tmp/app/.project_root": "/home/dev/app\n" });
  const tool = (name: string, args: Record<string, unknown>, status: string, response: Record<string, unknown>) => ({
    id: `${name}_1`,
    name,
    args,
    status,
    timestamp: "2026-11-20T10:00:02Z",
    result: [{ functionResponse: { id: `${name}_1`, name, response } }],
  });
  const lines = [
    { sessionId: "5c2e", projectHash: "ab", startTime: "2026-11-20T10:00:00Z", lastUpdated: "2026-11-20T10:00:00Z", kind: "main" },
    { $set: { messages: [{ id: "c", type: "user", content: [{ text: "<session_context>…</session_context>" }] }] } },
    { id: "u1", timestamp: "2026-11-20T10:00:01Z", type: "user", content: [{ text: "<hook_context>CTX</hook_context>\n\ntidy up" }] },
    { id: "g1", timestamp: "2026-11-20T10:00:02Z", type: "gemini", content: "" },
    {
      id: "g1",
      timestamp: "2026-11-20T10:00:02Z",
      type: "gemini",
      content: "",
      toolCalls: [
        tool("run_shell_command", { command: "echo x > .env" }, "error", { error: "Tool execution blocked: guard-secrets: no" }),
        tool("write_file", { file_path: "/home/dev/app/a.md", content: "x" }, "success", { output: "written" }),
      ],
    },
    { id: "u2", timestamp: "2026-11-20T10:00:03Z", type: "user", content: [{ functionResponse: { id: "x", name: "write_file", response: {} } }] },
    { id: "g2", timestamp: "2026-11-20T10:00:04Z", type: "gemini", content: "done" },
    { $set: { lastUpdated: "2026-11-20T10:00:04Z" } },
    { weather: "sunny" },
  ];

  it("rebuilds Gemini CLI's hook payloads with the project's path from beside the chat; the hooks' added context is not the prompt", async () => {
    const read = await HISTORIES.gemini.read(file, jsonl(lines), fs);
    expect(outline(read)).toEqual([
      ["SessionStart", 1, false],
      ["BeforeAgent", 3, false],
      ["BeforeTool", 5, true],
      ["BeforeTool", 5, false],
      ["AfterTool", 5, false],
      ["AfterAgent", 7, false],
    ]);
    expect(read.calls[1]?.payload).toMatchObject({ cwd: "/home/dev/app", prompt: "tidy up", session_id: "5c2e" });
    expect(read.calls[4]?.payload).toMatchObject({ tool_name: "write_file", tool_response: { llmContent: "written" } });
    expect(decodesAll(read.calls)).toEqual(["SessionStart", "UserPromptSubmit", "PreToolUse", "PreToolUse", "PostToolUse", "Stop"]);
    expect(read.problems).toEqual([{ file, line: 9, problem: "unknown entry (neither the session, a message nor a $set): skipped" }]);
  });

  it("the older one-document chats (session-*.json) too", async () => {
    const old = "/home/dev/.gemini/tmp/app/chats/session-2026-01-01T10-00-aa.json";
    const doc = { sessionId: "aa", projectHash: "ab", startTime: "2026-01-01T10:00:00Z", messages: [lines[2], lines[4]] };
    const read = await HISTORIES.gemini.read(old, JSON.stringify(doc, null, 2), fs);
    expect(read.calls.map((c) => c.eventName)).toEqual(["SessionStart", "BeforeAgent", "BeforeTool", "BeforeTool", "AfterTool"]);
  });
});

describe("Qwen Code chat records and Copilot CLI session events", () => {
  it("Qwen: Gemini's tool names in Claude's events; a call that never started is marked blocked", async () => {
    const file = "/home/dev/.qwen/projects/-home-dev-app/chats/7a.jsonl";
    const base = { sessionId: "7a", cwd: "/home/dev/app", timestamp: "2026-11-20T10:00:00Z" };
    const text = jsonl([
      {
        ...base,
        type: "user",
        message: { role: "user", parts: [{ text: "go" }, { text: "<qwen:user-prompt-submit-context>\nX\n</qwen:user-prompt-submit-context>" }] },
      },
      { ...base, type: "system", subtype: "ui_telemetry" },
      {
        ...base,
        type: "assistant",
        message: { role: "model", parts: [{ functionCall: { id: "c1", name: "write_file", args: { file_path: "/home/dev/app/.env" } } }] },
      },
      {
        ...base,
        type: "tool_result",
        message: { parts: [{ functionResponse: { id: "c1", response: { error: "no" } } }] },
        toolCallResult: { callId: "c1", status: "error", executionStatus: "not_started" },
      },
      { ...base, type: "assistant", message: { role: "model", parts: [{ text: "done" }] } },
    ]);
    const read = await HISTORIES.qwen.read(file, text, noFs);
    expect(read.calls.map((c) => [c.eventName, c.blockedLive !== undefined])).toEqual([
      ["SessionStart", false],
      ["UserPromptSubmit", false],
      ["PreToolUse", true],
      ["Stop", false],
    ]);
    expect(read.calls[1]?.payload.prompt).toBe("go");
    expect(decodesAll(read.calls)).toEqual(["SessionStart", "UserPromptSubmit", "PreToolUse", "Stop"]);
  });

  it("Copilot: the camelCase payloads its hook entries receive, named by the event as emit is told it", async () => {
    const file = "/home/dev/.copilot/session-state/b8/events.jsonl";
    const at = "2026-11-20T10:00:00.000Z";
    const text = jsonl([
      { type: "session.start", data: { sessionId: "b8", context: { cwd: "/home/dev/app" } }, timestamp: at },
      { type: "user.message", data: { content: "go" }, timestamp: at },
      {
        type: "assistant.message",
        data: { content: "", toolRequests: [{ toolCallId: "c1", name: "bash", arguments: { command: "rm -rf *" } }] },
        timestamp: at,
      },
      {
        type: "tool.execution_complete",
        data: { toolCallId: "c1", success: false, error: { message: "Denied by preToolUse hook: bash-guard: no", code: "denied" } },
        timestamp: at,
      },
      { type: "assistant.message", data: { content: "done", toolRequests: [] }, timestamp: at },
      { type: "assistant.turn_end", data: { turnId: "1" }, timestamp: at },
      { type: "session.shutdown", data: {}, timestamp: at },
    ]);
    const read = await HISTORIES.copilot.read(file, text, noFs);
    expect(read.calls.map((c) => [c.eventName, c.blockedLive !== undefined])).toEqual([
      ["sessionStart", false],
      ["userPromptSubmitted", false],
      ["preToolUse", true],
      ["agentStop", false],
    ]);
    expect(read.calls[2]?.payload).toEqual({
      sessionId: "b8",
      timestamp: Date.parse(at),
      cwd: "/home/dev/app",
      toolName: "bash",
      toolArgs: { command: "rm -rf *" },
    });
    expect(decodesAll(read.calls)).toEqual(["SessionStart", "UserPromptSubmit", "PreToolUse", "Stop"]);
    expect(read.problems).toEqual([]);
  });
});

describe("which reader a file given by path is", () => {
  it.each([
    ["/home/dev/.claude/projects/-x/1.jsonl", '{"type":"queue-operation","sessionId":"1"}', "claude"],
    ["/tmp/copied.jsonl", '{"parentUuid":null,"type":"user","sessionId":"1","message":{}}', "claude"],
    ["/tmp/copied.jsonl", '{"uuid":"a","sessionId":"1","type":"user","message":{"role":"user","parts":[]}}', "qwen"],
    ["/tmp/rollout-2026.jsonl", '{"type":"session_meta","payload":{}}', "codex"],
    ["/tmp/events.jsonl", '{"type":"session.start","data":{}}', "copilot"],
    ["/tmp/chat.jsonl", '{"sessionId":"x","projectHash":"y"}', "gemini"],
    ["/tmp/notes.jsonl", '{"hello":"world"}', undefined],
  ])("%s with %s → %s", (path, first, agent) => {
    expect(historyFormatOf(path, first)?.agent).toBe(agent);
  });

  it("finds the project's sessions where each agent keeps them, and only that project's", async () => {
    const places = { home: "/home/dev", env: {} };
    const fs = filesFs({
      "/home/dev/.claude/projects/-home-dev-app/1.jsonl": "{}",
      "/home/dev/.claude/projects/-home-dev-app-sub/2.jsonl": "{}",
      "/home/dev/.claude/projects/-home-dev-other/3.jsonl": "{}",
      "/home/dev/.codex/sessions/2026/11/20/rollout-a.jsonl": `${JSON.stringify({ type: "session_meta", payload: { cwd: "/home/dev/app/src" } })}\n`,
      "/home/dev/.codex/sessions/2026/11/20/rollout-b.jsonl": `${JSON.stringify({ type: "session_meta", payload: { cwd: "/home/dev/apple" } })}\n`,
      "/home/dev/.gemini/tmp/app/.project_root": "/home/dev/app",
      "/home/dev/.gemini/tmp/app/chats/session-1.jsonl": "{}",
      "/home/dev/.gemini/tmp/other/.project_root": "/home/dev/other",
      "/home/dev/.gemini/tmp/other/chats/session-2.jsonl": "{}",
    });
    expect((await HISTORIES.claude.sessionsOf("/home/dev/app", places, fs)).sort()).toEqual([
      "/home/dev/.claude/projects/-home-dev-app-sub/2.jsonl",
      "/home/dev/.claude/projects/-home-dev-app/1.jsonl",
    ]);
    expect(await HISTORIES.codex.sessionsOf("/home/dev/app", places, fs)).toEqual(["/home/dev/.codex/sessions/2026/11/20/rollout-a.jsonl"]);
    expect(await HISTORIES.gemini.sessionsOf("/home/dev/app", places, fs)).toEqual(["/home/dev/.gemini/tmp/app/chats/session-1.jsonl"]);
    expect(await HISTORIES.claude.sessionsOf("/home/dev/app", { home: "/home/dev", env: { CLAUDE_CONFIG_DIR: "/elsewhere" } }, fs)).toEqual([]);
  });
});
