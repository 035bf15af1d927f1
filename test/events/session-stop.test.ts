import { describe, expect, it } from "vitest";
import { checkEventName } from "../../src/core/events/names.ts";
import { parseEvent } from "../../src/core/events/parse.ts";
import { PROTOCOLS, hookProcessOutput } from "../../src/agents/protocols.ts";
import { WIRE_VERSION, type Decision } from "../../src/core/events/types.ts";

/**
 * The seeds' stop events: SessionStop (seed 000: the user pressed Stop) is its own event, told
 * apart from Stop (the agent finished its turn); AgentStop (seed 001: the main agent stops) is
 * Stop. A gate that keeps the agent going must never answer the user's stop with "go on".
 */
const deny = (event_type: string): Decision => ({
  v: WIRE_VERSION,
  event_id: "e",
  event_type,
  decision: "deny",
  reason: "run the tests first",
  decided_by: "gate",
  context_injections: [],
  user_messages: [],
  continue: true,
  runs: [],
});

describe("SessionStop, Stop and AgentStop", () => {
  it("names: SessionStop stays itself, AgentStop is Stop, a typo is told the nearest", () => {
    expect(checkEventName("SessionStop")).toEqual({ ok: true, name: "SessionStop" });
    expect(checkEventName("AgentStop")).toEqual({ ok: true, name: "Stop" });
    expect(checkEventName("SessionStopp")).toMatchObject({ ok: false, message: expect.stringContaining('did you mean "SessionStop"') });
    expect(parseEvent({ event_type: "SessionStop", changed_files: ["a.ts"] }).event_type).toBe("SessionStop");
    expect(parseEvent({}, "SessionStop").event_type).toBe("SessionStop");
  });

  it("Cursor: stop with status aborted is the user's SessionStop, completed is Stop; a deny on the user's stop sends no follow-up", () => {
    const payload = (status: string) => ({ conversation_id: "c", hook_event_name: "stop", status, loop_count: 0, workspace_roots: ["/p"] });
    const aborted = PROTOCOLS.cursor.decode(payload("aborted"), undefined);
    const completed = PROTOCOLS.cursor.decode(payload("completed"), undefined);
    expect([aborted.event_type, completed.event_type]).toEqual(["SessionStop", "Stop"]);
    expect(hookProcessOutput(PROTOCOLS.cursor.encode(deny("Stop"), completed)).stdout).toBe('{"followup_message":"run the tests first"}');
    expect(hookProcessOutput(PROTOCOLS.cursor.encode(deny("SessionStop"), aborted)).stdout).toBe("{}");
    // Failing closed on the user's stop does not restart the agent either.
    expect(hookProcessOutput(PROTOCOLS.cursor.failure("hookbox broke", aborted, { block: true })).stdout).toBe("{}");
  });

  it("`hookbox emit SessionStop` for the native dialect and an orchestrator names the event itself", () => {
    expect(PROTOCOLS.native.decode({ session_id: "s" }, { eventName: "SessionStop" }).event_type).toBe("SessionStop");
  });
});
