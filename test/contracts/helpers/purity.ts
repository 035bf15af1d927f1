import { expect } from "vitest";
import { hookProcessOutput, type AgentOutput } from "../../../src/agents/protocols.ts";

/**
 * Stdout purity (research §12): what the hook process writes is empty, or exactly one JSON object
 * with nothing before or after — not even whitespace or a second value — and an exit code every
 * agent understands (0, 1 or 2).
 */
export function expectPureOutput(answer: AgentOutput): void {
  const output = hookProcessOutput(answer);
  expect(typeof output.stdout).toBe("string");
  expect(typeof output.stderr).toBe("string");
  expect([0, 1, 2]).toContain(output.exitCode);
  if (output.stdout === "") return;
  const parsed: unknown = JSON.parse(output.stdout);
  expect(parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)).toBe(true);
  expect(JSON.stringify(parsed)).toBe(output.stdout);
}

/** The answer's body as the agent parses it from stdout. */
export function stdoutJson(answer: AgentOutput): Record<string, unknown> | undefined {
  const { stdout } = hookProcessOutput(answer);
  return stdout === "" ? undefined : (JSON.parse(stdout) as Record<string, unknown>);
}

/** The hook process's stdout for `answer`. */
export function stdoutOf(answer: AgentOutput): string {
  return hookProcessOutput(answer).stdout;
}
