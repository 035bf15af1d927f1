import { CANONICAL_TOOL_NAMES } from "./tool-names.ts";
import type { AgentName, AgentProtocol } from "./types.ts";

function toolNameOf(payload: unknown): unknown {
  const record = payload as Record<string, unknown>;
  return record.tool_name ?? record.toolName;
}

/**
 * True when the payload's tool is one `agent` would pass through unrenamed but another dialect
 * renames (`run_shell_command` in a payload shaped like Claude's): read as `agent`, the tool
 * would meet no guard written for Bash or Write — a dialect Hookbox does not know, wearing a known
 * one's shape. Hookbox's own (canonical) names are never foreign.
 */
function toolIsForeign(protocols: readonly AgentProtocol[], agent: AgentProtocol, toolName: unknown): boolean {
  if (typeof toolName !== "string" || CANONICAL_TOOL_NAMES.has(toolName) || Object.hasOwn(agent.tools ?? {}, toolName)) return false;
  return protocols.some(({ tools = {} }) => Object.hasOwn(tools, toolName) && tools[toolName] !== toolName);
}

/**
 * Auto-detection when `hookbox emit` gets no --agent (research §12): each protocol's `detect` is
 * asked in `order` (the agent table's detection ranks: most specific sign first). The answer is
 * the dialect a payload is in, or undefined when it is in none Hookbox knows (not an object, no
 * event name) or is ambiguous: shaped like one dialect but naming another's tool.
 */
export function detector(order: readonly AgentProtocol[]): (payload: unknown) => AgentName | undefined {
  return (payload) => {
    const found = order.find((protocol) => protocol.detect(payload));
    if (found === undefined || toolIsForeign(order, found, toolNameOf(payload))) return undefined;
    return found.name;
  };
}
