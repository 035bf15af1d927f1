import { expect } from "vitest";
import type { AuditRecord, Fired, Fortress, HookDef, RunSummary } from "./harness.ts";
import { sleep } from "./harness.ts";

/** What one invocation of a hostile hook must come to. */
export interface Expectation {
  readonly status: "completed" | "failed" | "denied";
  /** Allowed `error_code`s of a failed run (a set only where the engine may legitimately stop it either way). */
  readonly codes?: readonly string[];
  readonly reason?: RegExp;
  /** Capability calls the run record must show, in order (a prefix of host_calls is enough when `prefix`). */
  readonly hostCalls?: readonly { readonly capability: string; readonly outcome: "allowed" | "denied" | "error" }[];
  /** Anything else to check on the answer and the audit record. */
  readonly check?: (ctx: { fired: Fired; run: RunSummary; record: AuditRecord; fortress: Fortress }) => void | Promise<void>;
}

export interface HostileCase extends HookDef {
  readonly category: string;
  readonly title: string;
  /** Event fields besides cwd (the workspace) and session_id. */
  readonly event?: Record<string, unknown> | ((fortress: Fortress) => Record<string, unknown>);
  readonly expect: Expectation;
  /** Later invocations of the same hook (warm-context attacks), each with its own expectation. */
  readonly then?: readonly { readonly event?: Record<string, unknown>; readonly expect: Expectation }[];
}

/**
 * Fire the hostile hook with a benign event in flight beside it, check the run, its audit record
 * and the capability calls it made, check a benign event right after, and that no canary leaked.
 */
export async function runCase(fortress: Fortress, hostile: HostileCase): Promise<void> {
  const first = typeof hostile.event === "function" ? hostile.event(fortress) : hostile.event;
  const steps = [{ event: first, expect: hostile.expect }, ...(hostile.then ?? [])];
  for (const [index, step] of steps.entries()) {
    const mark = fortress.mark();
    const body = { session_id: `sec-${hostile.id}-${index}`, cwd: fortress.workspace, ...step.event };
    const attack = fortress.post(`sec.${hostile.id}`, body);
    const beside = sleep(20).then(() => fortress.benign(`beside-${hostile.id}-${index}`));
    const [fired, besideReply] = await Promise.all([attack, beside]);
    expect(fired.status, fired.text.slice(0, 800)).toBe(200);
    const run = fired.run(hostile.id);
    if (process.env.SECURITY_DEBUG) console.log(`${hostile.id}[${index}]`, JSON.stringify(run).slice(0, 400));
    const want = step.expect;
    expect(run.status, `${hostile.id}[${index}]: ${JSON.stringify(run).slice(0, 800)}`).toBe(want.status);
    if (want.status === "failed") {
      expect(want.codes, `${hostile.id}: a failed expectation names its codes`).toBeDefined();
      expect(want.codes, `${hostile.id}[${index}]: ${run.reason?.slice(0, 600)}`).toContain(run.error_code);
    }
    if (want.reason) expect(run.reason ?? "").toMatch(want.reason);

    const record = fortress.auditRecord(mark, fired.decision.event_id, hostile.id);
    expect(record.status).toBe(run.status);
    expect(record.error_code).toBe(run.error_code);
    if (want.hostCalls) {
      expect(record.host_calls.map((c) => ({ capability: c.capability, outcome: c.outcome }))).toEqual(want.hostCalls);
    }
    await want.check?.({ fired, run, record, fortress });

    const after = await fortress.benign(`after-${hostile.id}-${index}`);
    fortress.expectNoLeak(mark, [fired.text, besideReply.text, after.text]);
  }
  fortress.expectCanariesIntact();
}

/** `n` calls of one capability, all with the same outcome. */
export function calls(
  capability: string,
  outcome: "allowed" | "denied" | "error",
  n = 1,
): { capability: string; outcome: "allowed" | "denied" | "error" }[] {
  return Array.from({ length: n }, () => ({ capability, outcome }));
}
