import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WIRE_VERSION, type Decision } from "../../src/core/events/types.ts";
import { HookboxError } from "../../src/core/errors.ts";
import { AGENT_NAMES, PROTOCOLS, type AgentName } from "../../src/agents/protocols.ts";
import { FIXED_NOW } from "./helpers/payloads.ts";
import { expectPureOutput } from "./helpers/purity.ts";

/** Decoding either yields an event or throws HookboxError("event_invalid"): never a crash, never another error. */
function outcome(agent: AgentName, payload: unknown): "decoded" | "event_invalid" {
  try {
    PROTOCOLS[agent].decode(payload, { now: FIXED_NOW });
    return "decoded";
  } catch (error) {
    if (error instanceof HookboxError && error.code === "event_invalid") return "event_invalid";
    throw error;
  }
}

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < depth; i++) value = { next: value };
  return value;
}

const MB = "x".repeat(1024 * 1024);
const tool = { hook_event_name: "PreToolUse", session_id: "s", tool_name: "Bash" };

const MUST_REFUSE: readonly (readonly [AgentName, string, unknown])[] = [
  ["claude", "no event name", { session_id: "s" }],
  ["claude", "a tool event without tool_name", { hook_event_name: "PreToolUse", session_id: "s" }],
  ["claude", "an event name that is a number", { hook_event_name: 5, session_id: "s" }],
  ["claude", "an event name with spaces and quotes", { hook_event_name: 'Pre"Tool Use', session_id: "s" }],
  ["claude", "a session_id that is an object", { hook_event_name: "Stop", session_id: {} }],
  ["claude", "a tool_input that is a plain string", { ...tool, tool_input: "rm -rf /" }],
  ["claude", "a tool_input that is an array", { ...tool, tool_input: ["rm", "-rf"] }],
  ["claude", "a cwd that is a number", { hook_event_name: "Stop", session_id: "s", cwd: 7 }],
  ["claude", "a stop_hook_active that is a string", { hook_event_name: "Stop", session_id: "s", stop_hook_active: "yes" }],
  ["claude", "a prompt that is a number", { hook_event_name: "UserPromptSubmit", session_id: "s", prompt: 1 }],
  ["claude", "a 1 MiB session id", { hook_event_name: "Stop", session_id: MB }],
  ["claude", "a 1 MiB event name", { hook_event_name: MB, session_id: "s" }],
  ["claude", "a 100 kB tool name", { ...tool, tool_name: MB.slice(0, 100_000), tool_input: {} }],
  ["claude", "a tool_input nested 100 deep", { ...tool, tool_input: nested(100) }],
  ["claude", "a payload nested 100 000 deep", nested(100_000)],
  ["gemini", "a timestamp that is not a time", { hook_event_name: "BeforeAgent", session_id: "s", timestamp: "yesterday", prompt: "p" }],
  ["gemini", "a 1 MiB timestamp", { hook_event_name: "BeforeAgent", session_id: "s", timestamp: MB }],
  ["cursor", "a shell event without its command", { conversation_id: "c", hook_event_name: "beforeShellExecution" }],
  ["cursor", "a read event without its file", { conversation_id: "c", hook_event_name: "beforeReadFile" }],
  ["cursor", "MCP arguments that are not JSON", { conversation_id: "c", hook_event_name: "beforeMCPExecution", tool_name: "q", tool_input: "{oops" }],
  [
    "cursor",
    "MCP arguments that are JSON but not an object",
    { conversation_id: "c", hook_event_name: "beforeMCPExecution", tool_name: "q", tool_input: "[1,2]" },
  ],
  ["cursor", "workspace_roots that is a string", { conversation_id: "c", hook_event_name: "stop", workspace_roots: "/w" }],
  ["codex", "a tool_input that is a number", { ...tool, turn_id: "1", model: "m", tool_input: 42 }],
  ["copilot", "toolArgs holding JSON of an array", { sessionId: "s", hook_event_name: "Notification", toolName: "bash", toolArgs: "[1]" }],
  ["copilot", "a timestamp beyond any date", { sessionId: "s", timestamp: 1e20, prompt: "p" }],
  ["copilot", "a camelCase payload and no EVENT argument", { sessionId: "s", toolName: "bash", toolArgs: {} }],
  ["native", "no event_type", { session_id: "s" }],
  ["native", "an unknown event_type", { event_type: "NotAnEvent", session_id: "s" }],
  ["native", "a relative cwd", { event_type: "Stop", session_id: "s", cwd: "relative/dir" }],
];

describe("hostile payloads", () => {
  it.each(MUST_REFUSE)("%s refuses %s with event_invalid", (agent, _label, payload) => {
    expect(outcome(agent, payload)).toBe("event_invalid");
  });

  it("names the field at fault", () => {
    expect(() => PROTOCOLS.claude.decode({ ...tool, tool_input: "x" })).toThrow(/tool_input/);
    expect(() => PROTOCOLS.copilot.decode({ sessionId: "s", timestamp: "soon", prompt: "p" }, { eventName: "userPromptSubmitted" })).toThrow(
      /timestamp/,
    );
    expect(() => PROTOCOLS.cursor.decode({ conversation_id: "c", hook_event_name: "beforeShellExecution" })).toThrow(/command/);
  });

  it("decodes a legitimately huge tool input (a 10 MiB file write) and still answers purely", () => {
    const content = MB.repeat(10);
    const event = PROTOCOLS.claude.decode({ ...tool, tool_name: "Write", tool_input: { file_path: "/p/big", content } }, { now: FIXED_NOW });
    expect((event.tool_input as { content: string }).content.length).toBe(content.length);
    const output = PROTOCOLS.claude.encode(
      {
        v: WIRE_VERSION,
        event_id: "e",
        event_type: "PreToolUse",
        decision: "deny",
        reason: "too big",
        context_injections: [],
        user_messages: [],
        continue: true,
        runs: [],
      },
      event,
    );
    expectPureOutput(output);
  });

  it("keeps __proto__ and constructor keys as data, never reaching a prototype", () => {
    const payload = JSON.parse(
      '{"hook_event_name":"Stop","session_id":"s","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    ) as unknown;
    for (const agent of AGENT_NAMES) outcome(agent, payload);
    const camel = JSON.parse('{"sessionId":"s","prompt":"p","__proto__":{"polluted":true}}') as unknown;
    outcome("copilot", camel);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });
});

/** Mostly a well-typed value, sometimes any JSON at all: the properties then reach past the first check. */
function mostly<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: anyJson, weight: 1 });
}

/** Values shaped like the fields agents send, wrong types and all. */
const anyJson = fc.jsonValue({ maxDepth: 4 });
const eventNames = fc.constantFrom(
  "PreToolUse",
  "PostToolUse",
  "Stop",
  "SubagentStop",
  "PermissionRequest",
  "SessionStart",
  "BeforeTool",
  "AfterTool",
  "AfterAgent",
  "BeforeModel",
  "beforeShellExecution",
  "beforeMCPExecution",
  "beforeReadFile",
  "afterFileEdit",
  "preToolUse",
  "stop",
  "agentStop",
  "MessageDisplay",
  "task.completed",
  "",
);
const payloadLike = fc.record(
  {
    hook_event_name: mostly(eventNames),
    event_type: mostly(eventNames),
    session_id: mostly(fc.string()),
    sessionId: mostly(fc.string()),
    conversation_id: mostly(fc.string()),
    cwd: mostly(fc.constantFrom("/p", "C:\\p", "rel")),
    timestamp: mostly(
      fc.oneof(
        fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
        fc.integer(),
        fc.double(),
      ),
    ),
    tool_name: mostly(fc.constantFrom("Bash", "run_shell_command", "apply_patch", "Shell", "bash")),
    toolName: mostly(fc.constantFrom("bash", "edit")),
    tool_input: mostly(fc.oneof(fc.dictionary(fc.string(), anyJson), fc.json())),
    toolArgs: mostly(fc.oneof(fc.dictionary(fc.string(), anyJson), fc.json())),
    tool_response: anyJson,
    command: mostly(fc.string()),
    file_path: mostly(fc.string()),
    workspace_roots: mostly(fc.array(fc.string())),
    mcp_context: mostly(fc.record({ server_name: fc.string(), tool_name: fc.string() })),
    stop_hook_active: mostly(fc.boolean()),
    loop_count: anyJson,
    prompt: mostly(fc.string()),
    turn_id: mostly(fc.string()),
    model: mostly(fc.string()),
    transcript_path: fc.oneof(fc.constant(null), fc.string()),
  },
  { requiredKeys: [] },
);

const decision: fc.Arbitrary<Decision> = fc.record({
  v: fc.constant(WIRE_VERSION),
  event_id: fc.string(),
  event_type: fc.string(),
  decision: fc.constantFrom("allow", "deny", "ask"),
  reason: fc.option(fc.string(), { nil: undefined }),
  decided_by: fc.option(fc.string(), { nil: undefined }),
  data: fc.option(fc.dictionary(fc.string(), anyJson), { nil: undefined }),
  context_injections: fc.array(fc.record({ hook_id: fc.string(), role: fc.constantFrom("system", "user", "assistant"), content: fc.string() }), {
    maxLength: 3,
  }),
  user_messages: fc.array(fc.record({ hook_id: fc.string(), level: fc.constantFrom("info", "warning", "error"), message: fc.string() }), {
    maxLength: 3,
  }),
  continue: fc.boolean(),
  stop_reason: fc.option(fc.string(), { nil: undefined }),
  suppress_output: fc.option(fc.boolean(), { nil: undefined }),
  runs: fc.constant([]),
});

describe("properties", () => {
  it("any JSON value: every adapter decodes it or throws event_invalid", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(...AGENT_NAMES), (payload, agent) => void outcome(agent, payload)),
      { numRuns: 1000 },
    );
  });

  it("any payload-shaped object: every adapter decodes it or throws event_invalid, and its answer to any decision is pure", () => {
    fc.assert(
      fc.property(
        payloadLike,
        fc.constantFrom(...AGENT_NAMES),
        fc.option(eventNames, { nil: undefined }),
        decision,
        (payload, agent, eventName, answer) => {
          let event;
          try {
            event = PROTOCOLS[agent].decode(payload, { now: FIXED_NOW, ...(eventName !== undefined && { eventName }) });
          } catch (error) {
            expect(error instanceof HookboxError && error.code === "event_invalid").toBe(true);
            return;
          }
          expectPureOutput(PROTOCOLS[agent].encode({ ...answer, event_type: event.event_type }, event));
          expectPureOutput(PROTOCOLS[agent].failure("x", event, { block: true }));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
