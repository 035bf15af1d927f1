import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxEngine } from "../../sandbox/index.ts";
import { parseEvent } from "../../src/core/events/parse.ts";
import { dispatchEnv } from "../helpers/dispatch-env.ts";
import { createEngine } from "../helpers/sandbox.ts";

let engine: SandboxEngine;
beforeAll(async () => {
  engine = await createEngine();
});
afterAll(() => engine.dispose());

describe("a 20-hook chain", () => {
  it("a deny at position 5 stops hooks 6–20, and the answer says which hook denied and why", async () => {
    const hooks = Array.from({ length: 20 }, (_, i) => ({
      id: `hook-${String(i + 1).padStart(2, "0")}`,
      events: ["PreToolUse"],
      priority: i + 1,
      handler: {
        code:
          i === 4 ? "export default () => ({ action: 'deny', reason: 'rm -rf / is destructive' })" : "export default () => ({ reason: 'looked' })",
      },
    }));
    const { dispatcher } = await dispatchEnv(engine, { hooks });
    const { decision, records } = await dispatcher.handle(
      parseEvent({ event_type: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf /" } }),
    );
    expect(decision).toMatchObject({ decision: "deny", decided_by: "hook-05", reason: "rm -rf / is destructive" });
    expect(decision.runs.map((r) => r.status)).toEqual([...Array(4).fill("completed"), "denied", ...Array(15).fill("skipped")]);
    for (const run of decision.runs.slice(5)) expect(run.reason).toBe("hook-05 denied the event");
    // Skipped hooks never reached the sandbox: no time, no logs, no host calls.
    for (const record of records.slice(5)) expect(record).toMatchObject({ status: "skipped", duration_ms: 0, host_calls: [], logs: [] });
    expect(new Set(records.map((r) => r.event_id)).size).toBe(1);
  });
});
