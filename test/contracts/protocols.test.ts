import { describe, expect, it } from "vitest";
import { HookboxError } from "../../src/core/errors.ts";
import { AGENT_NAMES, PROTOCOLS, answerFor, hookProcessOutput, type AgentName } from "../../src/agents/protocols.ts";
import { DECISION_KINDS, REWRITE, decisionOf } from "./helpers/decisions.ts";
import { againstPayload, expectGolden } from "./helpers/golden.ts";
import { allPayloads, hintFor } from "./helpers/payloads.ts";
import { expectPureOutput, stdoutOf } from "./helpers/purity.ts";
import { representatives } from "./helpers/representatives.ts";

/**
 * The conformance suite every agent protocol runs (STYLE.md principle 10): captured payloads of
 * the real clients and the research examples decode to the reviewed native events; every kind
 * of decision encodes to the reviewed answer; every answer — failures included — is pure.
 */
const PAYLOADS = allPayloads();

function decoded(agent: AgentName) {
  return PAYLOADS.filter((item) => item.agent === agent).map((item) => ({ item, event: PROTOCOLS[agent].decode(item.payload, hintFor(item)) }));
}

describe.each(AGENT_NAMES)("the %s protocol", (agent) => {
  const protocol = PROTOCOLS[agent];

  it("decodes every captured fixture and research example to its golden native event", () => {
    const events = decoded(agent);
    expect(events.length).toBeGreaterThan(0);
    for (const { event } of events) {
      expect(event.agent).toBe(agent);
      expect(event.session_id).toEqual(expect.any(String));
      expect(Number.isFinite(Date.parse(event.timestamp))).toBe(true);
    }
    expectGolden(`decode/${agent}.json`, Object.fromEntries(events.map(({ item, event }) => [item.id, againstPayload(event, item.payload)])));
  });

  it("encodes every decision kind for each of its events to the golden answer", () => {
    const goldens = representatives(PAYLOADS, agent).map((item) => {
      const event = protocol.decode(item.payload, hintFor(item));
      return [
        `${item.id} (${event.event_type})`,
        Object.fromEntries(DECISION_KINDS.map((kind) => [kind, hookProcessOutput(protocol.encode(decisionOf(kind, event.event_type), event))])),
      ] as const;
    });
    expectGolden(`encode/${agent}.json`, Object.fromEntries(goldens));
  });

  it("keeps stdout pure for every payload, every decision kind and every failure", () => {
    for (const { event } of decoded(agent)) {
      for (const kind of DECISION_KINDS) expectPureOutput(protocol.encode(decisionOf(kind, event.event_type), event));
      expectPureOutput(protocol.failure("daemon and in-process evaluation both failed", event, { block: false }));
      expectPureOutput(protocol.failure("daemon and in-process evaluation both failed", event, { block: true }));
    }
    expectPureOutput(protocol.failure("stdin is not JSON", undefined, { block: false }));
    expectPureOutput(protocol.failure("stdin is not JSON", undefined, { block: true }));
  });

  it("fails open with the cause on stderr and exit 1, which every agent treats as a non-blocking error", () => {
    const event = decoded(agent)[0]?.event;
    for (const output of [
      protocol.failure("the sandbox would not start", event, { block: false }),
      protocol.failure("the sandbox would not start", undefined, { block: false }),
    ]) {
      expect(output.exitCode).toBe(1);
      expect(output.stderr).toContain("the sandbox would not start");
      if (agent !== "native") expect(stdoutOf(output)).toBe("");
    }
  });

  it("blocks with the reason it is given, when the rule says deny", () => {
    const output = protocol.failure("the sandbox would not start", undefined, { block: true });
    expect(`${stdoutOf(output)}${output.stderr}`).toContain("the sandbox would not start");
  });

  it("answers a decision it cannot encode with its failure answer instead of throwing", () => {
    // An event whose answer carries the rewritten input, so the unencodable data is reached.
    const event = decoded(agent).find(({ event }) =>
      stdoutOf(protocol.encode(decisionOf("modify", event.event_type), event)).includes(REWRITE.command),
    )?.event;
    // Qwen Code applies no rewrite, so its answers never carry the data (a rewrite blocks instead).
    if (!event && agent === "qwen") return;
    if (!event) throw new Error(`no ${agent} payload takes a rewrite`);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const output = answerFor(protocol, { ...decisionOf("modify", event.event_type), data: cyclic }, event, { block: false });
    expectPureOutput(output);
    expect(output.exitCode).toBe(1);
  });

  it("throws event_invalid, never anything else, for a payload that is not an object", () => {
    for (const payload of [null, 42, "PreToolUse", [], [{ hook_event_name: "PreToolUse" }], true]) {
      expect(() => protocol.decode(payload)).toThrow(HookboxError);
      try {
        protocol.decode(payload);
      } catch (error) {
        expect((error as HookboxError).code).toBe("event_invalid");
      }
    }
  });
});
