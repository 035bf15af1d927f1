import { claudeCode } from "./claude-code.ts";
import { codex } from "./codex.ts";
import { copilot } from "./copilot.ts";
import { cursor } from "./cursor.ts";
import { geminiCli } from "./gemini-cli.ts";
import { native } from "./native.ts";
import type { AgentName, AgentProtocol } from "./types.ts";

/**
 * Auto-detection when `hookbox emit` gets no --agent (research §12): most specific sign first.
 * Claude's shape is what Codex, Gemini and Copilot's VS Code mode build on, so Claude is asked
 * last, as the dialect of any payload that names its event in `hook_event_name`.
 */
export const DETECTION_ORDER: readonly AgentProtocol[] = [native, cursor, copilot, codex, geminiCli, claudeCode];

/** The dialect a payload is in, or undefined when it is in none Hookbox knows (not an object, no event name). */
export function detectAgent(payload: unknown): AgentName | undefined {
  return DETECTION_ORDER.find((protocol) => protocol.detect(payload))?.name;
}
