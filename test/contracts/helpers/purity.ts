import { expect } from "vitest";
import type { AgentOutput } from "../../../src/protocols/index.ts";

/**
 * Stdout purity (research §12): empty, or exactly one JSON object with nothing before or after —
 * not even whitespace or a second value — and an exit code every agent understands (0, 1 or 2).
 */
export function expectPureOutput(output: AgentOutput): void {
  expect(typeof output.stdout).toBe("string");
  expect(typeof output.stderr).toBe("string");
  expect([0, 1, 2]).toContain(output.exitCode);
  if (output.stdout === "") return;
  const parsed: unknown = JSON.parse(output.stdout);
  expect(parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)).toBe(true);
  expect(JSON.stringify(parsed)).toBe(output.stdout);
}

export function stdoutJson(output: AgentOutput): Record<string, unknown> | undefined {
  return output.stdout === "" ? undefined : (JSON.parse(output.stdout) as Record<string, unknown>);
}
