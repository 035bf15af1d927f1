import { describe, expect, it } from "vitest";
import { HookboxError } from "../../src/core/errors.ts";
import { PROTOCOLS, parseAgentStdin } from "../../src/agents/protocols.ts";
import { FIXED_NOW } from "./helpers/payloads.ts";

const now = FIXED_NOW;

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof HookboxError ? error.code : `not a HookboxError: ${String(error)}`;
  }
  return undefined;
}

describe("event names", () => {
  it("uses the payload's name over `emit EVENT`: Claude runs a subagent's Stop hook as SubagentStop", () => {
    const event = PROTOCOLS.claude.decode({ session_id: "s", hook_event_name: "SubagentStop", stop_hook_active: false }, { eventName: "Stop", now });
    expect(event.event_type).toBe("SubagentStop");
  });

  it("takes the name from `emit EVENT` when the payload has none (Copilot's camelCase payloads)", () => {
    const event = PROTOCOLS.copilot.decode(
      { sessionId: "s", timestamp: 1, cwd: "/p", toolName: "view", toolArgs: { path: "/p/a" } },
      { eventName: "preToolUse", now },
    );
    expect(event).toMatchObject({ event_type: "PreToolUse", agent_event_name: "preToolUse", tool_name: "Read", agent_tool_name: "view" });
  });

  it("accepts Hookbox's own name as the EVENT argument and answers for the agent's", () => {
    const event = PROTOCOLS.gemini.decode(
      { session_id: "s", tool_name: "run_shell_command", tool_input: { command: "ls" } },
      { eventName: "PreToolUse", now },
    );
    expect(event).toMatchObject({ event_type: "PreToolUse", agent_event_name: "BeforeTool" });
  });

  it("refuses a payload that names no event when no EVENT was given, saying how to give one", () => {
    expect(() => PROTOCOLS.copilot.decode({ sessionId: "s", toolName: "bash" })).toThrow(/hookbox emit <EVENT> --agent copilot/);
  });

  it("decodes an event it does not know to a custom dotted name rather than failing", () => {
    const event = PROTOCOLS.claude.decode({ session_id: "s", hook_event_name: "TaskCreated", task_id: "1" }, { now });
    expect(event.event_type).toBe("claude.task_created");
    expect(PROTOCOLS.gemini.decode({ session_id: "s", hook_event_name: "BeforeSomethingNew" }, { now }).event_type).toBe(
      "gemini.before_something_new",
    );
    expect(PROTOCOLS.cursor.decode({ conversation_id: "c", hook_event_name: "beforeMCPThing" }, { now }).event_type).toBe("cursor.before_mcp_thing");
  });
});

describe("the project directory (`cwd` of the native event, ${workspace} in grants)", () => {
  const payload = {
    session_id: "s",
    hook_event_name: "PreToolUse",
    cwd: "/home/dev/shop/packages/api",
    tool_name: "Bash",
    tool_input: { command: "ls" },
  };

  it("is the agent's project variable when set, so a `cd` does not move it; the agent's own cwd stays visible", () => {
    const event = PROTOCOLS.claude.decode(payload, { env: { CLAUDE_PROJECT_DIR: "/home/dev/shop" }, now });
    expect(event.cwd).toBe("/home/dev/shop");
    expect(event.agent_cwd).toBe("/home/dev/shop/packages/api");
  });

  it("is the payload's cwd otherwise", () => {
    const event = PROTOCOLS.claude.decode(payload, { env: {}, now });
    expect(event.cwd).toBe("/home/dev/shop/packages/api");
    expect(event.agent_cwd).toBeUndefined();
  });

  it("is Cursor's first workspace root before the command's cwd", () => {
    const event = PROTOCOLS.cursor.decode(
      { conversation_id: "c", hook_event_name: "beforeShellExecution", workspace_roots: ["/w/shop", "/w/lib"], command: "ls", cwd: "/w/shop/src" },
      { now },
    );
    expect(event).toMatchObject({ cwd: "/w/shop", agent_cwd: "/w/shop/src", workspace_roots: ["/w/shop", "/w/lib"] });
  });

  it("is left out for a Windows path, which native events cannot hold yet (workspace grants then match nothing)", () => {
    const event = PROTOCOLS.claude.decode({ ...payload, cwd: "C:\\Users\\dev\\shop" }, { now });
    expect(event.cwd).toBeUndefined();
    expect(event.agent_cwd).toBe("C:\\Users\\dev\\shop");
  });
});

describe("tool names", () => {
  it.each([
    ["gemini", { session_id: "s", hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command: "ls" } }, "Bash"],
    ["gemini", { session_id: "s", hook_event_name: "BeforeTool", tool_name: "write_file", tool_input: {} }, "Write"],
    ["gemini", { session_id: "s", hook_event_name: "BeforeTool", tool_name: "replace", tool_input: {} }, "Edit"],
    ["gemini", { session_id: "s", hook_event_name: "BeforeTool", tool_name: "read_file", tool_input: {} }, "Read"],
    ["cursor", { conversation_id: "c", hook_event_name: "preToolUse", tool_name: "StrReplace", tool_input: {} }, "Edit"],
    ["copilot", { hook_event_name: "PreToolUse", session_id: "s", timestamp: "2026-01-01T00:00:00Z", tool_name: "create", tool_input: {} }, "Write"],
    ["claude", { session_id: "s", hook_event_name: "PreToolUse", tool_name: "NotebookEdit", tool_input: {} }, "NotebookEdit"],
  ] as const)("%s: normalises to Claude's name and keeps the agent's", (agent, payload, toolName) => {
    const event = PROTOCOLS[agent].decode(payload, { now });
    expect(event.tool_name).toBe(toolName);
    expect(event.agent_tool_name).toBe(payload.tool_name);
  });

  it("leaves tool_input in the agent's shape, so a hook's rewrite goes back unchanged", () => {
    const input = { command: "ls", dir_path: "." };
    expect(
      PROTOCOLS.gemini.decode({ session_id: "s", hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: input }, { now })
        .tool_input,
    ).toEqual(input);
  });
});

describe("the agent's stdin", () => {
  it("drops the UTF-8 byte-order mark Cursor's Windows CLI sends (research §3.4)", () => {
    expect(parseAgentStdin('\uFEFF{"hook_event_name":"stop"}')).toEqual({ hook_event_name: "stop" });
  });

  it.each(["", "   \n", "not json", '{"a":1} trailing', "{"])("refuses %j with event_invalid", (text) => {
    expect(codeOf(() => parseAgentStdin(text))).toBe("event_invalid");
  });
});
