import type { InvocationOutcome } from "../../sandbox/index.ts";

/** Human output of an invocation: the result on stdout; logs, failure and stats on stderr. */
export function formatOutcome(outcome: InvocationOutcome): { stdout: string; stderr: string } {
  const lines = outcome.logs.map((log) => `[${log.level}] ${log.message}`);
  const s = outcome.stats;
  const stats = `(cpu ${s.cpuMs.toFixed(1)} ms, wall ${s.wallMs.toFixed(1)} ms, ${s.hostCalls} host calls${s.coldStart ? ", cold start" : ""})`;
  if (!outcome.ok) {
    lines.push(`error[${outcome.failure.code}]: ${outcome.failure.message}`);
    if (outcome.failure.guestStack) lines.push(outcome.failure.guestStack.trimEnd());
    lines.push(stats);
    return { stdout: "", stderr: `${lines.join("\n")}\n` };
  }
  lines.push(stats);
  const result = outcome.value === undefined ? "undefined (continue)" : JSON.stringify(outcome.value, null, 2);
  return { stdout: `${result}\n`, stderr: `${lines.join("\n")}\n` };
}
