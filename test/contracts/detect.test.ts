import { describe, expect, it } from "vitest";
import { DETECTION_ORDER, FALLBACK_AGENT, PROTOCOLS, detectAgent, protocolFor } from "../../src/protocols/index.ts";
import { allPayloads } from "./helpers/payloads.ts";

describe("auto-detection (`hookbox emit` without --agent)", () => {
  it("picks the right dialect for every captured fixture and research example", () => {
    const wrong = allPayloads()
      .map((item) => ({ id: item.id, expected: item.detectsAs, detected: detectAgent(item.payload) }))
      .filter(({ expected, detected }) => expected !== detected);
    expect(wrong).toEqual([]);
  });

  it("asks the most specific dialect first and Claude's, the lingua franca, last", () => {
    expect(DETECTION_ORDER.map((protocol) => protocol.name)).toEqual(["native", "cursor", "copilot", "codex", "gemini", "claude"]);
  });

  it.each([
    ["Claude's MessageDisplay, which carries a turn_id like Codex", { session_id: "s", hook_event_name: "MessageDisplay", turn_id: "t", prompt_id: "p", delta: "x" }, "claude"],
    ["Codex with a null transcript_path", { session_id: "s", hook_event_name: "SessionStart", transcript_path: null, cwd: "/p", model: "m", source: "startup" }, "codex"],
    ["Gemini's SessionStart (timestamp and transcript)", { session_id: "s", hook_event_name: "SessionStart", timestamp: "2026-01-01T00:00:00Z", transcript_path: "/t", source: "startup" }, "gemini"],
    ["Copilot's VS Code mode SessionStart (timestamp, no transcript)", { session_id: "s", hook_event_name: "SessionStart", timestamp: "2026-01-01T00:00:00Z", source: "new" }, "copilot"],
    ["VS Code's own agent hooks (sessionId + hookEventName)", { sessionId: "s", hookEventName: "PreToolUse", tool_name: "editFiles" }, "claude"],
    ["a native event", { event_type: "task.completed", session_id: "s" }, "native"],
  ])("tells apart %s", (_label, payload, agent) => {
    expect(detectAgent(payload)).toBe(agent);
  });

  it.each([null, 7, "x", [], {}, { tool_name: "Bash" }])("recognises no dialect in %j, and emit then speaks Claude's", (payload) => {
    expect(detectAgent(payload)).toBeUndefined();
    expect(protocolFor(undefined, payload)).toBe(PROTOCOLS[FALLBACK_AGENT]);
  });

  it("lets --agent win over detection", () => {
    expect(protocolFor("gemini", { hook_event_name: "PreToolUse" }).name).toBe("gemini");
  });
});
