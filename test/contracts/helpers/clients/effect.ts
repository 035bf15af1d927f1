import type { HookProcessOutput } from "../../../../src/agents/protocols.ts";

/**
 * What an agent does with a hook's answer, as modelled from its own source (see each model's
 * header). The semantic suite checks Hookbox's answers through these models, independently of
 * the golden files.
 */
export interface Effect {
  /** The guarded action does not happen (tool blocked, prompt dropped, stop refused so the agent goes on), with the text the agent passes on. */
  blocked?: string;
  /** The agent asks the user, with this text. */
  asked?: string;
  /** The answer skips the agent's own permission prompt. Hookbox must never cause this. */
  approved: boolean;
  rewrite?: unknown;
  context?: string;
  halted: boolean;
  userMessage?: string;
  /** The agent threw the answer away as invalid and went ahead (fail open). */
  rejected?: string;
}

export type ClientModel = (output: HookProcessOutput, agentEventName: string) => Effect;

export function noEffect(): Effect {
  return { approved: false, halted: false };
}

export function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function parseStdout(output: HookProcessOutput): Record<string, unknown> | undefined {
  const text = output.stdout.trim();
  if (text === "") return undefined;
  return asObject(JSON.parse(text));
}
