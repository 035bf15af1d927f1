import type { Decision, NativeEvent } from "../../core/events/types.ts";
import type { AgentOutput, AgentProtocol, DecodeHint, FailureOptions } from "../shared/protocol/types.ts";
import { joinText, summarize } from "../shared/protocol/answer.ts";
import { decodeHookPayload } from "../shared/protocol/hook-payload.ts";
import { agentEventNameOf, eventTable } from "../shared/protocol/event-names.ts";
import { failure } from "../shared/protocol/failure.ts";
import type { EventParts } from "../shared/protocol/native-event.ts";
import { exitTwo, jsonOrNothing } from "../shared/protocol/output.ts";
import type { Payload } from "../shared/protocol/payload.ts";
import { GEMINI_TOOLS } from "./tools.ts";

/** Gemini CLI's event names → native (research §2.3 and `gemini hooks migrate --from-claude`, §2.1); the model-level events have no native counterpart. */
export const GEMINI_EVENT_NAMES: Readonly<Record<string, string>> = {
  BeforeTool: "PreToolUse",
  AfterTool: "PostToolUse",
  BeforeAgent: "UserPromptSubmit",
  AfterAgent: "Stop",
  SessionStart: "SessionStart",
  SessionEnd: "SessionEnd",
  PreCompress: "PreCompact",
  Notification: "Notification",
  BeforeModel: "gemini.before_model",
  AfterModel: "gemini.after_model",
  BeforeToolSelection: "gemini.before_tool_selection",
};

const EVENTS = eventTable(GEMINI_EVENT_NAMES);

/** The event names only Gemini CLI uses: a payload, or a settings file, naming one is Gemini's. */
export const GEMINI_ONLY_EVENTS: ReadonlySet<string> = new Set([
  "BeforeTool",
  "AfterTool",
  "BeforeAgent",
  "AfterAgent",
  "BeforeModel",
  "AfterModel",
  "BeforeToolSelection",
  "PreCompress",
]);
const SHARED_EVENTS: ReadonlySet<string> = new Set(["SessionStart", "SessionEnd", "Notification"]);

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * Gemini's MCP tools are `mcp_<server>_<tool>`, which cannot be split reliably; `mcp_context`
 * names both, so they get Claude's `mcp__server__tool`. A failed tool (tool_response.error)
 * is PostToolUseFailure, as the cross-agent table has it (research §8.1).
 */
function refine(parts: EventParts, payload: Payload): EventParts {
  let refined = parts;
  const mcp = asRecord(payload.mcp_context);
  if (refined.tool && typeof mcp?.server_name === "string" && typeof mcp.tool_name === "string") {
    refined = { ...refined, tool: { ...refined.tool, tool_name: `mcp__${mcp.server_name}__${mcp.tool_name}` } };
  }
  const error = asRecord(refined.tool?.response)?.error;
  if (refined.eventType === "PostToolUse" && error !== undefined && error !== null && error !== false) {
    const message =
      typeof error === "string" ? error : typeof asRecord(error)?.message === "string" ? (asRecord(error)?.message as string) : JSON.stringify(error);
    refined = { ...refined, eventType: "PostToolUseFailure", extra: { ...refined.extra, error: message } };
  }
  return refined;
}

/** What each event honours, from Gemini CLI 0.61.0's hook code (DefaultHookOutput and its callers). */
interface EventRule {
  readonly block?: boolean;
  readonly ask?: boolean;
  readonly rewrite?: boolean;
  readonly context?: boolean;
}
const RULES: Readonly<Record<string, EventRule>> = {
  BeforeTool: { block: true, ask: true, rewrite: true },
  AfterTool: { block: true, context: true },
  BeforeAgent: { block: true, context: true },
  AfterAgent: { block: true },
  BeforeModel: { block: true },
  AfterModel: { block: true },
  SessionStart: { context: true },
};

export function encodeGemini(decision: Decision, event: NativeEvent): AgentOutput {
  const answer = summarize(decision);
  const eventName = agentEventNameOf(event, EVENTS);
  const rule = RULES[eventName] ?? {};
  const body: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  let unblockable: string | undefined;

  if (answer.verdict === "ask" && rule.ask) {
    body.decision = "ask";
    body.reason = answer.reason;
  } else if (answer.verdict !== "allow" && rule.block) {
    // "block", not Gemini's documented "deny": Gemini takes both (0.61.0 isBlockingDecision), and
    // "block" is also valid to Claude Code, which drops a whole answer over "deny" (real-clients.md §2).
    body.decision = "block";
    body.reason = answer.reason;
  } else if (answer.verdict !== "allow") {
    unblockable = answer.reason;
  }
  // Gemini merges hookSpecificOutput.tool_input over the arguments; `data` is the whole final input.
  if (rule.rewrite && answer.rewrite && answer.verdict !== "deny") specific.tool_input = answer.rewrite;
  if (rule.context && answer.context) specific.additionalContext = answer.context;
  if (answer.halt) {
    body.continue = false;
    body.stopReason = answer.halt.reason;
  }
  // For an ask, Gemini shows systemMessage in the confirmation it raises (scheduler/hook-utils.ts).
  const userText = joinText(answer.userMessage, unblockable, body.decision === "ask" ? answer.reason : undefined);
  if (userText) body.systemMessage = userText;
  if (answer.suppressOutput) body.suppressOutput = true;
  if (Object.keys(specific).length > 0) body.hookSpecificOutput = { hookEventName: eventName, ...specific };
  return jsonOrNothing(body);
}

/** Gemini CLI names the project in GEMINI_PROJECT_DIR, and in CLAUDE_PROJECT_DIR for hooks written for Claude (research §2.1). */
const PROJECT_DIR_ENV = ["GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"];

export const geminiCli: AgentProtocol = {
  name: "gemini",
  events: EVENTS,
  tools: GEMINI_TOOLS,
  projectDirEnv: PROJECT_DIR_ENV,
  /** hookSpecificOutput.tool_input, on BeforeTool only. */
  acceptsRewrite: (event) => RULES[agentEventNameOf(event, EVENTS)]?.rewrite === true,
  /** Gemini's own event names, or a name it shares with Claude plus Gemini's ISO `timestamp` and `transcript_path` (Claude sends no timestamp; Copilot's VS Code mode no transcript on these). */
  detect(payload) {
    const record = asRecord(payload);
    const name = record?.hook_event_name;
    if (typeof name !== "string") return false;
    if (GEMINI_ONLY_EVENTS.has(name)) return true;
    return SHARED_EVENTS.has(name) && typeof record?.timestamp === "string" && typeof record.transcript_path === "string";
  },
  decode: (payload: unknown, hint?: DecodeHint) =>
    decodeHookPayload(
      {
        agent: "gemini",
        label: "Gemini CLI",
        events: EVENTS,
        tools: GEMINI_TOOLS,
        projectDirEnv: PROJECT_DIR_ENV,
        refine,
      },
      payload,
      hint,
    ),
  encode: encodeGemini,
  failure: (reason: string, event: NativeEvent | undefined, options: FailureOptions) =>
    failure({ encode: encodeGemini, blockUnknownEvent: (reason) => exitTwo(reason, { decision: "block", reason }) }, reason, event, options),
};
