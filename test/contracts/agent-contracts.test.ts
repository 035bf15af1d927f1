import { describe, expect, it } from "vitest";
import { PROTOCOLS, type AgentName } from "../../src/agents/protocols.ts";
import { claudeRejects } from "./helpers/clients/claude-code.ts";
import { codexRejects } from "./helpers/clients/codex.ts";
import { DECISION_KINDS, decisionOf } from "./helpers/decisions.ts";
import { allPayloads, hintFor } from "./helpers/payloads.ts";
import { stdoutJson, stdoutOf } from "./helpers/purity.ts";

/** Every encoding of every payload an agent may send, for the per-agent rules below. */
function encodings(agent: AgentName) {
  return allPayloads()
    .filter((item) => item.agent === agent)
    .flatMap((item) => {
      const event = PROTOCOLS[agent].decode(item.payload, hintFor(item));
      return DECISION_KINDS.map((kind) => ({
        id: `${item.id} × ${kind}`,
        event,
        output: PROTOCOLS[agent].encode(decisionOf(kind, event.event_type), event),
      }));
    });
}

describe("Claude Code answers", () => {
  it("only ever hold values Claude Code 2.1.330's schema accepts (one bad value drops the whole answer)", () => {
    for (const { id, event, output } of encodings("claude")) {
      const body = stdoutJson(output);
      if (body) expect(claudeRejects(body, String(event.agent_event_name)), id).toBeUndefined();
    }
  });

  it("block with JSON and exit 0, not exit 2, which would show the hook's command line to the model (real-clients.md §1)", () => {
    for (const { id, output } of encodings("claude")) expect(output.exitCode, id).toBe(0);
  });
});

describe("Codex answers", () => {
  it("block with exit 2 only with a non-empty reason on stderr, and nothing on stdout (Codex reads no stdout then)", () => {
    const blocks = encodings("codex").filter(({ output }) => output.exitCode === 2);
    expect(blocks.length).toBeGreaterThan(0);
    for (const { id, output } of blocks) {
      expect(output.stderr.trim(), id).not.toBe("");
      expect(stdoutOf(output), id).toBe("");
    }
  });

  it("otherwise exit 0 with JSON that Codex's strict (deny_unknown_fields) wire types accept", () => {
    for (const { id, event, output } of encodings("codex")) {
      if (output.exitCode === 2) continue;
      expect(output.exitCode, id).toBe(0);
      const body = stdoutJson(output);
      if (body) expect(codexRejects(body, String(event.agent_event_name)), id).toBeUndefined();
    }
  });

  it("keep the block reason even when the hook gave none (exit 2 with empty stderr fails open)", () => {
    const event = PROTOCOLS.codex.decode({
      session_id: "s",
      turn_id: "1",
      model: "m",
      transcript_path: null,
      cwd: "/p",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "x" },
    });
    const output = PROTOCOLS.codex.encode({ ...decisionOf("deny", "PreToolUse"), reason: "   " }, event);
    expect(output.exitCode).toBe(2);
    expect(output.stderr.trim()).not.toBe("");
  });

  it("accept Claude's answers where Codex's SessionStart cannot be told from Claude's", () => {
    const item = allPayloads().find((payload) => payload.id === "samples/codex/synthetic-sessionstart.json");
    const event = PROTOCOLS.claude.decode(item?.payload, hintFor(item as NonNullable<typeof item>));
    for (const kind of DECISION_KINDS) {
      const body = stdoutJson(PROTOCOLS.claude.encode(decisionOf(kind, "SessionStart"), event));
      if (body) expect(codexRejects(body, "SessionStart"), kind).toBeUndefined();
    }
  });
});

describe("Copilot CLI answers", () => {
  it("always exit 0: Copilot logs and skips any non-zero exit, so only JSON can block", () => {
    for (const { id, output } of encodings("copilot")) expect(output.exitCode, id).toBe(0);
  });

  it("say deny with the reason Copilot requires for it", () => {
    for (const { id, output } of encodings("copilot")) {
      const body = stdoutJson(output);
      if (body?.permissionDecision === "deny") expect(String(body.permissionDecisionReason).trim(), id).not.toBe("");
    }
  });

  it("block a failure-closed tool with JSON and exit 0 too", () => {
    const output = PROTOCOLS.copilot.failure("no daemon", undefined, { block: true });
    expect(output.exitCode).toBe(0);
    expect(stdoutJson(output)?.permissionDecision).toBe("deny");
  });
});

describe("Gemini CLI answers", () => {
  it("never use a non-zero exit other than 1 on a non-failure path: Gemini turns exit 2+ plain text into a deny (research §2.4)", () => {
    for (const { id, output } of encodings("gemini")) expect(output.exitCode, id).toBe(0);
  });

  it("say block, never Gemini's documented deny, which Claude rejects", () => {
    for (const { id, output } of encodings("gemini")) expect(stdoutJson(output)?.decision, id).not.toBe("deny");
  });
});

describe("Cursor answers", () => {
  it("are always one JSON object, never 'allow' (which could skip Cursor's own approval)", () => {
    for (const { id, output } of encodings("cursor")) {
      expect(stdoutJson(output), id).toBeDefined();
      expect(stdoutJson(output)?.permission, id).not.toBe("allow");
    }
  });
});
