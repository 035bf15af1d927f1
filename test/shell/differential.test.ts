import { describe, expect, it } from "vitest";
import { protectedMisses, runDifferential } from "./differential.ts";

describe("hookbox:shell against real bash (the differential test; table: docs/shell-reader.md)", () => {
  it("over 300 commands that may write files: every protected file bash wrote is named by the reader and denied by guard-secrets", async (ctx) => {
    const run = await runDifferential();
    if (run.unavailable) {
      console.log(`shell differential test skipped: ${run.unavailable}`);
      ctx.skip(run.unavailable);
      return;
    }
    const ran = run.results.filter((r) => !r.skipped);
    expect(ran.length).toBeGreaterThanOrEqual(300);
    // Not vacuous: bash really wrote protected files in a good part of them.
    expect(ran.filter((r) => r.written.some((w) => w.protected)).length).toBeGreaterThan(100);
    expect(protectedMisses(run.results)).toEqual([]);
  }, 900_000);
});
