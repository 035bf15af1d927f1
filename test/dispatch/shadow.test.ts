import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxEngine } from "../../sandbox/index.ts";
import { parseEvent } from "../../src/core/events/parse.ts";
import { dispatchEnv } from "../helpers/dispatch-env.ts";
import { createEngine } from "../helpers/sandbox.ts";

/**
 * Shadow mode (hooks.<id>.mode: monitor): a monitored hook runs on the event, its would-be
 * decision is in its record, and nothing it returns changes what the caller gets.
 */
let engine: SandboxEngine;
beforeAll(async () => {
  engine = await createEngine();
});
afterAll(() => engine.dispose());

const DENY_ENV = {
  id: "strict",
  events: ["PreToolUse"],
  on_error: "deny",
  permissions: { inject_context: true },
  handler: {
    code: "export default (e) => /\\.env$/.test(e.tool_input.file_path ?? '') ? ({ action: 'deny', reason: 'no .env', context_injection: 'ctx', user_message: 'hi' }) : ({})",
  },
};
const WRITE_ENV = { event_type: "PreToolUse", session_id: "s", cwd: "/work/project", tool_name: "Write", tool_input: { file_path: ".env" } };

describe("a monitored hook", () => {
  it("would deny: the caller is allowed, and the record says what it would have done", async () => {
    const { dispatcher } = await dispatchEnv(engine, { hooks: [DENY_ENV], operator: { hooks: { strict: { mode: "monitor" } } } });
    const outcome = await dispatcher.handle(parseEvent(WRITE_ENV));
    expect(outcome.decision).toMatchObject({ decision: "allow", context_injections: [], user_messages: [] });
    const [record] = outcome.records;
    expect(record).toMatchObject({
      hook_id: "strict",
      status: "completed",
      action: "deny",
      mode: "monitor",
      would: { decision: "deny", reason: "no .env" },
      injections: [],
    });
    expect(record?.notes?.join("\n")).toMatch(/monitor mode.*1 context injection dropped/);
  });

  it("runs even when an enforcing hook denied first, and does not change that deny", async () => {
    const guard = {
      id: "guard",
      events: ["PreToolUse"],
      priority: 1,
      handler: { code: "export default () => ({ action: 'deny', reason: 'guard says no' })" },
    };
    const { dispatcher } = await dispatchEnv(engine, { hooks: [guard, DENY_ENV], operator: { hooks: { strict: { mode: "monitor" } } } });
    const outcome = await dispatcher.handle(parseEvent(WRITE_ENV));
    expect(outcome.decision).toMatchObject({ decision: "deny", decided_by: "guard" });
    expect(outcome.records.map((r) => [r.hook_id, r.status, r.would?.decision])).toEqual([
      ["guard", "denied", undefined],
      ["strict", "completed", "deny"],
    ]);
  });

  it("that fails with on_error: deny (and fail_closed) denies nothing; it would have", async () => {
    const thrower = {
      id: "thrower",
      events: ["PreToolUse"],
      on_error: "deny",
      handler: { code: "export default () => { throw new Error('boom') }" },
    };
    const { dispatcher } = await dispatchEnv(engine, { hooks: [thrower], operator: { fail_closed: true, hooks: { thrower: { mode: "monitor" } } } });
    const outcome = await dispatcher.handle(parseEvent(WRITE_ENV), { failClosed: true });
    expect(outcome.decision.decision).toBe("allow");
    expect(outcome.records[0]).toMatchObject({ status: "failed", mode: "monitor", would: { decision: "deny" } });
  });

  it("that rewrites: the caller's input stays as it was; the record says it would have rewritten", async () => {
    const rewriter = {
      id: "rewriter",
      events: ["PreToolUse"],
      permissions: { modify: ["tool_input.command"] },
      handler: { code: "export default () => ({ action: 'modify', data: { command: 'ls -la' } })" },
    };
    const { dispatcher } = await dispatchEnv(engine, { hooks: [rewriter], operator: { hooks: { rewriter: { mode: "monitor" } } } });
    const outcome = await dispatcher.handle(parseEvent({ ...WRITE_ENV, tool_name: "Bash", tool_input: { command: "ls" } }));
    expect(outcome.decision.decision).toBe("allow");
    expect(outcome.decision.data).toBeUndefined();
    expect(outcome.records[0]?.would?.decision).toBe("modify");
  });

  it("that would allow is recorded as such; mode: enforce (or none) decides as before", async () => {
    const monitored = await dispatchEnv(engine, { hooks: [DENY_ENV], operator: { hooks: { strict: { mode: "monitor" } } } });
    const allowed = await monitored.dispatcher.handle(parseEvent({ ...WRITE_ENV, tool_input: { file_path: "a.txt" } }));
    expect(allowed.records[0]?.would).toEqual({ decision: "allow" });
    const enforced = await dispatchEnv(engine, { hooks: [DENY_ENV], operator: { hooks: { strict: { mode: "enforce" } } } });
    const denied = await enforced.dispatcher.handle(parseEvent(WRITE_ENV));
    expect(denied.decision).toMatchObject({ decision: "deny", decided_by: "strict" });
    expect(denied.records[0]?.mode).toBeUndefined();
  });
});
