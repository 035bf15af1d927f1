import { describe, expect, it } from "vitest";
import { Lifecycle, SESSION_HOLD_SECONDS } from "../../src/serve/daemon/lifecycle.ts";

// An agent session that used a daemon keeps it, and one warm worker, until its SessionEnd (or a
// generous bound): the session's next tool call, however long after, is not a cold one.

function lifecycle(options: { idleExitSeconds?: number } = {}) {
  let now = 1_000_000;
  const expired: string[] = [];
  const held: number[] = [];
  const cycle = new Lifecycle({
    origin: "auto",
    socketPath: "/run/hookbox/auto.sock",
    idleExitSeconds: options.idleExitSeconds ?? 900,
    fs: { stamp: async () => "stamp" },
    onExpired: (why) => expired.push(why),
    onSessions: (open) => held.push(open),
    now: () => now,
    checkEveryMs: 60_000_000,
  });
  const event = (type: string, session: string): void => {
    const end = cycle.begin();
    end(true);
    cycle.sessionEvent(type, session);
  };
  return { cycle, expired, held, event, advance: (seconds: number) => (now += seconds * 1000) };
}

describe("a daemon held by open agent sessions", () => {
  it("does not idle out while a session is open, and does once its SessionEnd came and the idle time passed", async () => {
    const { cycle, expired, held, event, advance } = lifecycle();
    await cycle.start();
    event("SessionStart", "s1");
    event("PreToolUse", "s1");
    advance(20 * 60);
    await cycle.check();
    expect(expired).toEqual([]);
    expect(cycle.state().sessions).toBe(1);
    event("SessionEnd", "s1");
    expect(held).toEqual([1, 0]);
    advance(899);
    await cycle.check();
    expect(expired).toEqual([]);
    advance(2);
    await cycle.check();
    expect(expired).toEqual(["no event for 901 s"]);
    cycle.stop();
  });

  it("counts only sessions it saw start: events of others keep the idle time as before", async () => {
    const { cycle, expired, held, event, advance } = lifecycle();
    await cycle.start();
    event("PreToolUse", "never-started");
    event("SessionEnd", "never-started");
    event("SessionStart", "");
    expect(cycle.state().sessions).toBe(0);
    expect(held).toEqual([]);
    advance(901);
    await cycle.check();
    expect(expired).toHaveLength(1);
    cycle.stop();
  });

  it("closes a session quiet for longer than the bound (an agent killed without its SessionEnd)", async () => {
    const { cycle, expired, held, event, advance } = lifecycle();
    await cycle.start();
    event("SessionStart", "s1");
    event("SessionStart", "s2");
    advance(SESSION_HOLD_SECONDS - 60);
    event("PostToolUse", "s2");
    advance(120);
    await cycle.check();
    // s1 is past the bound, s2 sent an event a minute ago: the daemon stays for s2.
    expect(cycle.state().sessions).toBe(1);
    expect(expired).toEqual([]);
    advance(SESSION_HOLD_SECONDS);
    await cycle.check();
    expect(cycle.state().sessions).toBe(0);
    expect(held.at(-1)).toBe(0);
    expect(expired).toHaveLength(1);
    cycle.stop();
  });

  it("goes once retired even with a session open (its agents' emits use the newer daemon)", async () => {
    const { cycle, expired, event, advance } = lifecycle();
    await cycle.start();
    event("SessionStart", "s1");
    cycle.retire("a newer build took over");
    advance(61);
    await cycle.check();
    expect(expired).toHaveLength(1);
    cycle.stop();
  });

  it("remembers a bounded number of sessions (their ids come from the agent)", async () => {
    const { cycle, event } = lifecycle();
    for (let i = 0; i < 1000; i++) event("SessionStart", `s${i}`);
    expect(cycle.state().sessions).toBe(256);
  });
});
