import { claudeCode } from "../../claude/protocol.ts";
import { codex } from "../../codex/protocol.ts";
import { copilot } from "../../copilot/protocol.ts";
import { cursor } from "../../cursor/protocol.ts";
import { geminiCli } from "../../gemini/protocol.ts";
import { native } from "../../native/protocol.ts";
import { qwen } from "../../qwen/protocol.ts";
import { CLAUDE_TOOL_NAMES, CODEX_TOOLS, COPILOT_TOOLS, CURSOR_TOOLS, GEMINI_TOOLS, QWEN_TOOLS, type ToolNameMap } from "./tool-names.ts";
import type { AgentName, AgentProtocol } from "./types.ts";

/**
 * Auto-detection when `hookbox emit` gets no --agent (research §12): most specific sign first.
 * Claude's shape is what Codex, Gemini, Qwen and Copilot's VS Code mode build on, so Claude is
 * asked last, as the dialect of any payload that names its event in `hook_event_name`. Qwen goes
 * before Copilot, whose VS Code mode also carries an ISO timestamp but no permission_mode.
 */
export const DETECTION_ORDER: readonly AgentProtocol[] = [native, cursor, qwen, copilot, codex, geminiCli, claudeCode];

/** The tool names each dialect renames to Claude's (shared/tool-names.ts). */
const TOOL_MAPS: Readonly<Record<AgentName, ToolNameMap>> = {
  claude: {},
  gemini: GEMINI_TOOLS,
  cursor: CURSOR_TOOLS,
  codex: CODEX_TOOLS,
  copilot: COPILOT_TOOLS,
  qwen: QWEN_TOOLS,
  native: {},
};

function toolNameOf(payload: unknown): unknown {
  const record = payload as Record<string, unknown>;
  return record.tool_name ?? record.toolName;
}

/**
 * True when the payload's tool is one `agent` would pass through unrenamed but another dialect
 * renames (`run_shell_command` in a payload shaped like Claude's): read as `agent`, the tool
 * would meet no guard written for Bash or Write — a dialect Hookbox does not know, wearing a known
 * one's shape. Claude's own names are never foreign.
 */
function toolIsForeign(agent: AgentName, toolName: unknown): boolean {
  if (typeof toolName !== "string" || CLAUDE_TOOL_NAMES.has(toolName) || Object.hasOwn(TOOL_MAPS[agent], toolName)) return false;
  return Object.values(TOOL_MAPS).some((map) => Object.hasOwn(map, toolName) && map[toolName] !== toolName);
}

/**
 * The dialect a payload is in, or undefined when it is in none Hookbox knows (not an object, no
 * event name) or is ambiguous: shaped like one dialect but naming another's tool.
 */
export function detectAgent(payload: unknown): AgentName | undefined {
  const found = DETECTION_ORDER.find((protocol) => protocol.detect(payload))?.name;
  if (found === undefined || toolIsForeign(found, toolNameOf(payload))) return undefined;
  return found;
}
