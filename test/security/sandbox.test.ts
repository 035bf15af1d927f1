import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCase } from "./case.ts";
import { SANDBOX_CASES } from "./cases/sandbox.ts";
import { Fortress, type HookDef, type RunSummary } from "./harness.ts";

/**
 * Hostile handlers against the sandbox's limits, through the real daemon (dist/hookbox serve,
 * two worker processes): each run is contained with its code, audited, and the daemon keeps
 * answering beside it and after it; no canary leaks.
 */

/** Keeps 6 MiB more in its warm context on every event. */
const WARM_LEAK: HookDef = {
  id: "mem-warm-leak",
  limits: { memory_mb: 16 },
  source:
    "const kept: Uint8Array[] = [];\nexport default () => { kept.push(new Uint8Array(6 * 1024 * 1024).fill(1)); return { reason: 'kept ' + kept.length }; }",
};

describe("hostile handlers vs the sandbox's limits (the binary's daemon)", () => {
  let fortress: Fortress;
  beforeAll(async () => {
    fortress = await Fortress.start([...SANDBOX_CASES, WARM_LEAK]);
  });
  afterAll(async () => {
    await fortress?.stop();
  });

  it("loaded every hostile hook", async () => {
    expect(new Set(SANDBOX_CASES.map((c) => c.id)).size).toBe(SANDBOX_CASES.length);
    await fortress.benign("start");
    await fortress.plain();
  });

  for (const hostile of SANDBOX_CASES) {
    it(`[${hostile.category}] ${hostile.id}: ${hostile.title}`, async () => {
      await runCase(fortress, hostile);
    });
  }

  it("[memory] mem-warm-leak: a warm context that keeps 6 MiB more per event fails on memory, and the next event starts afresh", async () => {
    const mark = fortress.mark();
    const runs: RunSummary[] = [];
    const events: string[] = [];
    for (let i = 0; i < 12; i++) {
      const fired = await fortress.post("sec.mem-warm-leak", { cwd: fortress.workspace });
      events.push(fired.decision.event_id);
      runs.push(fired.run("mem-warm-leak"));
      if (runs.at(-1)?.status !== "completed") break;
    }
    const last = runs.at(-1);
    expect(last).toMatchObject({ status: "failed", error_code: "sandbox_memory" });
    runs.slice(0, -1).forEach((run, i) => expect(run).toMatchObject({ status: "completed", reason: `kept ${i + 1}` }));
    expect(runs.length).toBeGreaterThanOrEqual(2);
    const fresh = await fortress.post("sec.mem-warm-leak", { cwd: fortress.workspace });
    expect(fresh.run("mem-warm-leak")).toMatchObject({ status: "completed", reason: "kept 1" });
    for (const id of events) fortress.auditRecord(mark, id, "mem-warm-leak");
    await fortress.benign("after-warm-leak");
    fortress.expectNoLeak(mark);
  });

  it("the canaries are untouched after every hostile handler", () => {
    fortress.expectCanariesIntact();
  });
});
