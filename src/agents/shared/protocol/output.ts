import type { AgentOutput, HookProcessOutput } from "./types.ts";

/** No opinion: every agent reads an empty stdout with exit 0 as "go ahead as you would". */
export const NO_OUTPUT: AgentOutput = { body: undefined, stderr: "", exitCode: 0 };

/** One JSON object as the answer. */
export function jsonOutput(body: Readonly<Record<string, unknown>>, exitCode = 0, stderr = ""): AgentOutput {
  return { body, stderr, exitCode };
}

/** The agent's answer as its hook process gives it: the body as one JSON object on stdout and nothing else (research §12, stdout purity), or no stdout at all. */
export function hookProcessOutput(output: AgentOutput): HookProcessOutput {
  return { stdout: output.body === undefined ? "" : JSON.stringify(output.body), stderr: output.stderr, exitCode: output.exitCode };
}

/** The body, or no output at all when there is nothing to say. */
export function jsonOrNothing(body: Readonly<Record<string, unknown>>): AgentOutput {
  return Object.keys(body).length > 0 ? jsonOutput(body) : NO_OUTPUT;
}

/** Exit 2 with the reason on stderr: the block every exit-code agent honours. Codex needs stderr non-empty (research §4.4). */
export function exitTwo(reason: string, stdoutBody?: Readonly<Record<string, unknown>>): AgentOutput {
  return { body: stdoutBody, stderr: `${reason.trim() || "Blocked by Hookbox."}\n`, exitCode: 2 };
}

/** Only defined fields: `undefined` values never reach an agent's schema check. */
export function definedFields(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
