import type { Decision, NativeEvent } from "../../../core/events/types.ts";
import type { EventTable } from "./event-names.ts";

/** The dialects `hookbox emit --agent` speaks. "native" is Hookbox's own event and decision JSON. */
export const AGENT_NAMES = ["claude", "gemini", "cursor", "codex", "copilot", "qwen", "native"] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

/**
 * An agent's answer, structured: `body` is its JSON answer, or undefined where the agent reads
 * "no output" as "no opinion". `stderr` is for the agent's own exit-code contracts (Codex's
 * exit-2 reason) and diagnostics on failure paths only. Serialized once, by hookProcessOutput
 * (shared/output.ts), into what `hookbox emit` writes; an agent calling over HTTP gets `body`.
 */
export interface AgentOutput {
  readonly body: Readonly<Record<string, unknown>> | undefined;
  readonly stderr: string;
  readonly exitCode: number;
}

/**
 * What a hook process writes and exits with: `stdout` is exactly one JSON object, or empty —
 * never anything else (agents drop or misread answers with noise in them, research §12).
 */
export interface HookProcessOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/** What `hookbox emit` knows besides the payload. All optional; decoding stays pure. */
export interface DecodeHint {
  /** The EVENT argument of `hookbox emit EVENT`: the agent's event name or a native one. Used only when the payload names none (Copilot's camelCase payloads). */
  readonly eventName?: string;
  /** The environment the agent gave the hook: where CLAUDE_PROJECT_DIR / GEMINI_PROJECT_DIR / CURSOR_PROJECT_DIR come from. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Clock for payloads without a timestamp (tests pin it). */
  readonly now?: () => Date;
}

export interface FailureOptions {
  /** Block with the reason (the rule said deny), or let the agent go ahead with it on stderr. */
  readonly block: boolean;
}

/** One agent's hook protocol: its payload in, Hookbox's answer out. Implementations are pure. */
export interface AgentProtocol {
  readonly name: AgentName;
  /** The agent's event names and their native ones (absent for the native dialect, which uses native names). */
  readonly events?: EventTable;
  /** True when the payload looks like this agent's dialect; detect.ts asks in a fixed order, most specific first. */
  detect(payload: unknown): boolean;
  /** The agent's stdin JSON as a native event. Throws HookboxError("event_invalid") naming the field at fault. */
  decode(payload: unknown, hint?: DecodeHint): NativeEvent;
  /** The aggregated decision in exactly this agent's contract, for the event `decode` produced. */
  encode(decision: Decision, event: NativeEvent): AgentOutput;
  /**
   * Whether the agent applies a rewritten input for this event (Claude's updatedInput on
   * PreToolUse, Gemini's tool_input on BeforeTool …). Where it does not, Hookbox refuses every
   * modify, so the checks judge what will really run.
   */
  acceptsRewrite(event: NativeEvent): boolean;
  /** Whether the agent shows the model a rewritten tool output for this event (Claude's updatedToolOutput on PostToolUse); absent: never. */
  acceptsOutputRewrite?(event: NativeEvent): boolean;
  /** What to answer when Hookbox could not fully evaluate: a block with `reason`, or the agent's go-ahead with it shown. */
  failure(reason: string, event: NativeEvent | undefined, options: FailureOptions): AgentOutput;
}
