import { describe, expect, it } from "vitest";
import { BackgroundResults, resultOf, withBackground, type BackgroundResult } from "../../src/decide/background.ts";
import type { Decision } from "../../src/core/events/types.ts";

// The pure half of background hooks (src/decide/background.ts): what of a background run's answer
// waits, what the session's next event takes of it, and what that event's answer becomes.

const answer = (over: Partial<Decision> = {}): Decision => ({
  v: 1,
  event_id: "e1",
  event_type: "PreToolUse",
  decision: "allow",
  context_injections: [],
  user_messages: [],
  continue: true,
  runs: [],
  ...over,
});

const result = (over: Partial<BackgroundResult> = {}): BackgroundResult => ({
  hook_id: "review",
  run_id: "r1",
  started_by: "PostToolUse",
  at: 1_000,
  context: [],
  messages: [],
  ...over,
});

describe("background results", () => {
  it("keep a run's own context, messages and deny; nothing to deliver is nothing queued", () => {
    const decision = answer({
      decision: "deny",
      reason: "tests broke",
      context_injections: [
        { hook_id: "review", role: "system", content: "look" },
        { hook_id: "other", role: "system", content: "not mine" },
      ],
    });
    expect(resultOf(decision, "review", "r1", "PostToolUse", 5)).toEqual(
      result({ at: 5, deny: "tests broke", context: [{ hook_id: "review", role: "system", content: "look" }] }),
    );
    expect(resultOf(answer(), "review", "r1", "PostToolUse", 5)).toBeUndefined();
  });

  it("an event that cannot refuse a tool call takes the context and leaves the deny for the session's next tool call", () => {
    const queue = new BackgroundResults();
    queue.add("p#s", result({ deny: "no", context: [{ hook_id: "review", role: "system", content: "hint" }] }));
    const now = 2_000;
    expect(queue.take("p#s", false, now)).toEqual([result({ context: [{ hook_id: "review", role: "system", content: "hint" }] })]);
    expect(queue.take("other#s", true, now)).toEqual([]);
    expect(queue.take("p#s", true, now)).toEqual([result({ deny: "no" })]);
    expect(queue.size("p#s")).toBe(0);
  });

  it("stale results (over an hour) are dropped; at most 16 wait per session", () => {
    const queue = new BackgroundResults();
    for (let i = 0; i < 20; i++) queue.add("k", result({ run_id: `r${i}`, messages: [{ hook_id: "review", level: "info", message: `m${i}` }] }));
    expect(queue.size("k")).toBe(16);
    expect(queue.dropped).toBe(4);
    expect(queue.take("k", true, 1_000 + 3_600_001)).toEqual([]);
  });

  it("a deny-next refuses the tool call, naming the hook and where it ran, and drops the hooks' rewrite and ask", () => {
    const decided = withBackground(
      answer({ decision: "ask", data: { command: "ls -la" }, approval: { hook_id: "g", prompt: "?", options: [], timeout_ms: 1, default: "deny" } }),
      [result({ deny: "the last edit broke the build" })],
    );
    expect(decided).toMatchObject({
      decision: "deny",
      decided_by: "review",
      delivered_runs: [{ hook_id: "review", run_id: "r1", trigger: "background" }],
    });
    expect(decided.reason).toMatch(/^the last edit broke the build \(hook review, a background run on PostToolUse at /);
    expect(decided.data).toBeUndefined();
    expect(decided.approval).toBeUndefined();
  });

  it("context arrives with a line saying where it comes from; messages as they were", () => {
    const decided = withBackground(answer(), [
      result({
        context: [{ hook_id: "review", role: "system", content: "types fail" }],
        messages: [{ hook_id: "review", level: "warning", message: "heads up" }],
      }),
    ]);
    expect(decided.decision).toBe("allow");
    expect(decided.context_injections[0]?.content).toMatch(/^\[Hookbox: from hook "review", a background run on PostToolUse at .*\]\ntypes fail$/);
    expect(decided.user_messages).toEqual([{ hook_id: "review", level: "warning", message: "heads up" }]);
  });
});
