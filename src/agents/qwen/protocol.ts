import { CANONICAL_EVENTS } from "../../core/events/names.ts";
import type { Decision, NativeEvent } from "../../core/events/types.ts";
import type { AgentOutput, AgentProtocol, DecodeHint, FailureOptions } from "../shared/protocol/types.ts";
import { joinText, summarize } from "../shared/protocol/answer.ts";
import { decodeHookPayload } from "../shared/protocol/hook-payload.ts";
import { agentEventNameOf, eventTable } from "../shared/protocol/event-names.ts";
import { failure } from "../shared/protocol/failure.ts";
import { exitTwo, jsonOrNothing } from "../shared/protocol/output.ts";
import { QWEN_TOOLS } from "./tools.ts";

/**
 * Qwen Code forked Gemini CLI but took Claude Code's event names (its own extras — SessionDelete,
 * TodoCreated, TodoCompleted — decode to qwen.<snake_case>) while keeping Gemini's tool names:
 * read as Claude, its `run_shell_command` and `write_file` never meet a `Bash` or `Write` guard.
 */
const EVENTS = eventTable(Object.fromEntries(CANONICAL_EVENTS.map((name) => [name, name])));

/** Gemini CLI's own event names: a payload naming one is Gemini's, never Qwen's. */
const GEMINI_ONLY_EVENTS: ReadonlySet<string> = new Set([
  "BeforeTool",
  "AfterTool",
  "BeforeAgent",
  "AfterAgent",
  "BeforeModel",
  "AfterModel",
  "BeforeToolSelection",
  "PreCompress",
]);

/**
 * What each event honours in Qwen Code 0.24.4 (packages/core hooks/types.ts output classes and
 * their callers in the tool scheduler and client). Qwen parses answers leniently (no schema),
 * reads `decision: "block"|"deny"` and `hookSpecificOutput.permissionDecision`, but:
 * - PreToolUse cannot rewrite the call (`tool_input` only reaches the next hook in a sequential
 *   group; `updatedInput` is read on PermissionRequest alone), so a rewrite blocks instead of
 *   letting the original input run;
 * - PostToolUse ignores `decision`: a no after the fact can only be told to the model, as context;
 * - Stop treats `continue: false` like a block — it makes the agent go on — so a halt is not said there.
 */
type BlockStyle = "permission" | "decision" | "after-the-fact" | "permission-request" | "none";
interface EventRule {
  readonly block: BlockStyle;
  readonly context: boolean;
  readonly halt: boolean;
}
const RULES: Readonly<Record<string, EventRule>> = {
  PreToolUse: { block: "permission", context: true, halt: true },
  PostToolUse: { block: "after-the-fact", context: true, halt: true },
  PostToolBatch: { block: "decision", context: true, halt: true },
  UserPromptSubmit: { block: "decision", context: true, halt: true },
  Stop: { block: "decision", context: false, halt: false },
  SubagentStop: { block: "decision", context: false, halt: false },
  PermissionRequest: { block: "permission-request", context: false, halt: false },
  PostToolUseFailure: { block: "none", context: true, halt: false },
  SessionStart: { block: "none", context: true, halt: false },
  Notification: { block: "none", context: true, halt: false },
  UserPromptExpansion: { block: "decision", context: true, halt: true },
};
const OTHER_EVENT: EventRule = { block: "none", context: false, halt: false };

export function encodeQwen(decision: Decision, event: NativeEvent): AgentOutput {
  const answer = summarize(decision);
  const eventName = agentEventNameOf(event, EVENTS);
  const rule = RULES[eventName] ?? OTHER_EVENT;
  const body: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  const context: (string | undefined)[] = [answer.context];
  let unblockable: string | undefined;

  // A rewrite Qwen would drop becomes a block: the original input must not run in its place.
  const unappliedRewrite = rule.block === "permission" && answer.rewrite !== undefined && answer.verdict !== "deny";
  const verdict = unappliedRewrite ? "deny" : answer.verdict;
  const reason = unappliedRewrite
    ? `Hookbox${decision.decided_by ? ` hook "${decision.decided_by}"` : ""} rewrote this tool call, and Qwen Code cannot apply a rewritten input, so it is blocked instead.`
    : answer.reason;

  if (rule.block === "permission" && verdict !== "allow") {
    body.decision = "block";
    body.reason = reason;
    specific.permissionDecision = verdict;
    specific.permissionDecisionReason = reason;
  } else if (rule.block === "decision" && verdict !== "allow") {
    // An ask the event cannot put to the user is not an approval: it blocks, with its reason.
    body.decision = "block";
    body.reason = reason;
  } else if (rule.block === "after-the-fact" && verdict !== "allow") {
    context.unshift(reason);
    unblockable = reason;
  } else if (rule.block === "permission-request" && verdict === "deny") {
    specific.decision = { behavior: "deny", message: reason, ...(answer.halt && { interrupt: true }) };
  } else if (verdict !== "allow") {
    unblockable = reason;
  }

  const contextText = joinText(...context);
  if (rule.context && contextText) specific.additionalContext = contextText;
  if (answer.halt && rule.halt) {
    body.continue = false;
    body.stopReason = answer.halt.reason;
  }
  const userText = joinText(answer.userMessage, unblockable, answer.halt && !rule.halt ? answer.halt.reason : undefined);
  if (userText) body.systemMessage = userText;
  if (answer.suppressOutput) body.suppressOutput = true;
  if (Object.keys(specific).length > 0) body.hookSpecificOutput = { hookEventName: eventName, ...specific };
  return jsonOrNothing(body);
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Qwen Code names the project in QWEN_PROJECT_DIR, and in its forebears' variables for hooks written for them. */
const PROJECT_DIR_ENV = ["QWEN_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"];

export const qwen: AgentProtocol = {
  name: "qwen",
  events: EVENTS,
  tools: QWEN_TOOLS,
  projectDirEnv: PROJECT_DIR_ENV,
  /** Never: Qwen drops a rewrite on PreToolUse (a rewrite Hookbox would pass on becomes a block instead). */
  acceptsRewrite: () => false,
  /**
   * Claude's event field with Gemini's ISO `timestamp` and a `permission_mode`: Qwen Code puts both
   * in every payload (hookEventHandler createBaseInput). Claude sends no timestamp, Gemini CLI no
   * permission_mode, Copilot's VS Code mode neither a permission_mode.
   */
  detect(payload) {
    const record = asRecord(payload);
    const name = record?.hook_event_name;
    if (typeof name !== "string" || GEMINI_ONLY_EVENTS.has(name)) return false;
    return typeof record?.timestamp === "string" && typeof record.permission_mode === "string";
  },
  decode: (payload: unknown, hint?: DecodeHint) =>
    decodeHookPayload(
      {
        agent: "qwen",
        label: "Qwen Code",
        events: EVENTS,
        tools: QWEN_TOOLS,
        projectDirEnv: PROJECT_DIR_ENV,
      },
      payload,
      hint,
    ),
  encode: encodeQwen,
  failure: (reason: string, event: NativeEvent | undefined, options: FailureOptions) =>
    // Exit 2 blocks in Qwen on every event that can block, stderr its reason (hookRunner.ts).
    failure({ encode: encodeQwen, blockUnknownEvent: (reason) => exitTwo(reason) }, reason, event, options),
};
