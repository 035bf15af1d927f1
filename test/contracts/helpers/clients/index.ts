import type { NativeEvent } from "../../../../src/core/events/types.ts";
import { hookProcessOutput, type AgentName, type AgentOutput } from "../../../../src/agents/protocols.ts";
import { claudeReads } from "./claude-code.ts";
import { codexReads } from "./codex.ts";
import { copilotReads } from "./copilot.ts";
import { cursorReads } from "./cursor.ts";
import type { Effect } from "./effect.ts";
import { geminiReads } from "./gemini-cli.ts";
import { qwenReads } from "./qwen-code.ts";

export type { Effect } from "./effect.ts";

/** What the agent that sent `event` does with `answer`, as its hook process writes it. Native has no client to model. */
export function clientReads(agent: Exclude<AgentName, "native">, answer: AgentOutput, event: NativeEvent): Effect {
  const output = hookProcessOutput(answer);
  const agentEventName = String(event.agent_event_name ?? event.event_type);
  switch (agent) {
    case "claude":
      return claudeReads(output, agentEventName);
    case "gemini":
      return geminiReads(output, agentEventName);
    case "codex":
      return codexReads(output, agentEventName);
    case "cursor":
      return cursorReads(output, agentEventName);
    case "copilot":
      return copilotReads(output, event.event_type);
    case "qwen":
      return qwenReads(output, agentEventName);
  }
}
