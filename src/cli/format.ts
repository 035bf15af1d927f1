import type { InvocationOutcome } from "../../sandbox/index.ts";
import { sourceExcerpt } from "./excerpt.ts";

/** Human output of an invocation: the result on stdout; logs, failure (at its line of `source`) and stats on stderr. */
export function formatOutcome(outcome: InvocationOutcome, source?: string): { stdout: string; stderr: string } {
  const lines = outcome.logs.map((log) => `[${log.level}] ${log.message}`);
  const s = outcome.stats;
  const stats = `(cpu ${s.cpuMs.toFixed(1)} ms, wall ${s.wallMs.toFixed(1)} ms, ${s.hostCalls} host calls${s.coldStart ? ", cold start" : ""})`;
  if (!outcome.ok) {
    const { code, message, guestStack, location } = outcome.failure;
    lines.push(`error[${code}]: ${message}`);
    if (guestStack) lines.push(guestStack.trimEnd());
    else if (location) lines.push(`    at ${location.file}:${location.line}:${location.column}`);
    if (location && source !== undefined) lines.push(sourceExcerpt(source, location.line, location.column).trimEnd());
    lines.push(stats);
    return { stdout: "", stderr: `${lines.join("\n")}\n` };
  }
  lines.push(stats);
  const result = outcome.value === undefined ? "undefined (continue)" : JSON.stringify(outcome.value, null, 2);
  return { stdout: `${result}\n`, stderr: `${lines.join("\n")}\n` };
}

/** An invocation as `--json` prints it: snake_case keys, like every other JSON Hookbox writes. */
export function outcomeJson(outcome: InvocationOutcome): Record<string, unknown> {
  const { cpuMs, wallMs, hostCalls, heapBytes, coldStart } = outcome.stats;
  const stats = { cpu_ms: cpuMs, wall_ms: wallMs, host_calls: hostCalls, heap_bytes: heapBytes, cold_start: coldStart };
  if (outcome.ok) return { ok: true, value: outcome.value ?? null, logs: outcome.logs, stats };
  const { code, message, limit, guestStack, location } = outcome.failure;
  return {
    ok: false,
    failure: { code, message, ...(limit && { limit }), ...(guestStack && { guest_stack: guestStack }), ...(location && { location }) },
    logs: outcome.logs,
    stats,
  };
}
