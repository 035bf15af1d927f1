// src/agents/shared/protocol owns what the agents' hook protocols share (types, detection, stdin, shared/) and the table of them; each agent's own protocol is src/agents/<agent>/protocol.ts: its stdin JSON → native event, a Decision → its answer (a body, stderr, an exit code; hookProcessOutput writes it as the hook process's stdout). Pure: imports only src/core/events and src/errors, no runtime APIs.
import type { Decision, NativeEvent } from "../core/events/types.ts";
import { errorMessage } from "../core/errors.ts";
import { checkEventName } from "../core/events/names.ts";
import { claudeCode } from "./claude/protocol.ts";
import { codex } from "./codex/protocol.ts";
import { copilot } from "./copilot/protocol.ts";
import { cursor } from "./cursor/protocol.ts";
import { geminiCli } from "./gemini/protocol.ts";
import { native } from "./native/protocol.ts";
import { qwen } from "./qwen/protocol.ts";
import { hookProcessOutput } from "./shared/protocol/output.ts";
import { AGENT_NAMES, type AgentName, type AgentOutput, type AgentProtocol, type FailureOptions } from "./shared/protocol/types.ts";

export { hookProcessOutput } from "./shared/protocol/output.ts";
export {
  AGENT_NAMES,
  type AgentName,
  type AgentOutput,
  type AgentProtocol,
  type DecodeHint,
  type FailureOptions,
  type HookProcessOutput,
} from "./shared/protocol/types.ts";
export { DETECTION_ORDER, detectAgent } from "./shared/protocol/detect.ts";
export { parseAgentStdin } from "./shared/protocol/stdin.ts";

export const PROTOCOLS: Readonly<Record<AgentName, AgentProtocol>> = { claude: claudeCode, gemini: geminiCli, cursor, codex, copilot, qwen, native };

/** Claude's dialect is what most agents speak (research §0): the answer for a payload nothing recognises. */
export const FALLBACK_AGENT: AgentName = "claude";

export function isAgentName(name: string): name is AgentName {
  return (AGENT_NAMES as readonly string[]).includes(name);
}

/** Environment variables in which agents name the project (the hook's working directory moves with the agent's `cd`). */
export const PROJECT_DIR_ENV: readonly string[] = ["CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR", "QWEN_PROJECT_DIR"];

/** The native event type an agent's event name decodes to, when the name is known to the dialect (or is native). */
export function nativeEventName(protocol: AgentProtocol, name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const mapped = protocol.events?.toNative.get(name);
  if (mapped !== undefined) return mapped;
  const check = checkEventName(name);
  return check.ok ? check.name : undefined;
}

/**
 * `encode`, with a failure answer should the decision not be encodable (data that is not JSON,
 * a cycle): emit and the HTTP route never crash mid-answer. The body is serialized here to find
 * out (a few microseconds for an answer of a few hundred bytes), by the one serializer emit uses.
 */
export function answerFor(protocol: AgentProtocol, decision: Decision, event: NativeEvent, options: FailureOptions): AgentOutput {
  try {
    const output = protocol.encode(decision, event);
    hookProcessOutput(output);
    return output;
  } catch (error) {
    return protocol.failure(`could not encode the decision for ${protocol.name}: ${errorMessage(error)}`, event, options);
  }
}
