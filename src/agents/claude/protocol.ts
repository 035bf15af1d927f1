import { CANONICAL_EVENTS } from "../../core/events/names.ts";
import type { Decision, NativeEvent } from "../../core/events/types.ts";
import type { AgentOutput, AgentProtocol, DecodeHint, FailureOptions } from "../shared/protocol/types.ts";
import { joinText, summarize } from "../shared/protocol/answer.ts";
import { decodeHookPayload } from "../shared/protocol/hook-payload.ts";
import { agentEventNameOf, eventTable } from "../shared/protocol/event-names.ts";
import { failure } from "../shared/protocol/failure.ts";
import { exitTwo, jsonOrNothing } from "../shared/protocol/output.ts";

/** Claude Code's names are the canonical ones; its other events (MessageDisplay, PostToolBatch …) decode to claude.<snake_case>. */
const EVENTS = eventTable(Object.fromEntries(CANONICAL_EVENTS.map((name) => [name, name])));

/**
 * How each event can say no, and whether it takes `hookSpecificOutput.additionalContext`.
 * Taken from Claude Code 2.1.330's own output schema: one value it does not accept (a wrong
 * hookEventName, Gemini's `decision: "deny"`) makes it drop the whole answer and run the tool
 * (real-clients.md §2), so nothing here goes beyond what that schema lists.
 */
type BlockStyle = "permission" | "permission-request" | "decision" | "none";
interface EventRule {
  readonly block: BlockStyle;
  readonly context: boolean;
}

const RULES: Readonly<Record<string, EventRule>> = {
  PreToolUse: { block: "permission", context: true },
  PermissionRequest: { block: "permission-request", context: false },
  PostToolUse: { block: "decision", context: true },
  PostToolBatch: { block: "decision", context: true },
  UserPromptSubmit: { block: "decision", context: true },
  UserPromptExpansion: { block: "decision", context: true },
  Stop: { block: "decision", context: true },
  SubagentStop: { block: "decision", context: true },
  PreCompact: { block: "decision", context: false },
  PostToolUseFailure: { block: "none", context: true },
  SessionStart: { block: "none", context: true },
  SubagentStart: { block: "none", context: true },
  Notification: { block: "none", context: true },
  Setup: { block: "none", context: true },
  SessionEnd: { block: "none", context: false },
  PostCompact: { block: "none", context: false },
  StopFailure: { block: "none", context: false },
  MessageDisplay: { block: "none", context: false },
  InstructionsLoaded: { block: "none", context: false },
  // Same contract as PreToolUse's permissionDecision (2.1.330: deny cancels the switch); no additionalContext.
  PreModelSwitch: { block: "permission", context: false },
  PostModelSwitch: { block: "none", context: true },
  // Claude lets a hook's block stop these (exit 2 / decision "block"): a task marked done, a teammate idling, a settings change.
  TaskCreated: { block: "decision", context: false },
  TaskCompleted: { block: "decision", context: false },
  TeammateIdle: { block: "decision", context: false },
  ConfigChange: { block: "decision", context: false },
  // After the fact: the call was already refused, the directory already changed; their only answers are retry and watchPaths.
  PermissionDenied: { block: "none", context: false },
  CwdChanged: { block: "none", context: false },
  FileChanged: { block: "none", context: false },
  DirectoryAdded: { block: "none", context: false },
  WorktreeRemove: { block: "none", context: false },
};
/** Events newer than this table: top-level `decision: "block"` is valid on every event, so a hook's no still reaches Claude. */
const UNKNOWN_EVENT: EventRule = { block: "decision", context: false };

export function encodeClaude(decision: Decision, event: NativeEvent): AgentOutput {
  const answer = summarize(decision);
  const eventName = agentEventNameOf(event, EVENTS);
  const rule = RULES[eventName] ?? UNKNOWN_EVENT;
  const body: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  let unblockable: string | undefined;

  if (rule.block === "permission") {
    if (answer.verdict === "deny") {
      // The answer proven to block in both Claude Code 2.1.330 and Gemini CLI 0.61.0
      // (real-clients.md, "One answer that blocks in both CLIs"): a misdetected dialect still blocks.
      body.decision = "block";
      body.reason = answer.reason;
      specific.permissionDecision = "deny";
      specific.permissionDecisionReason = answer.reason;
    } else {
      if (answer.verdict === "ask") {
        specific.permissionDecision = "ask";
        specific.permissionDecisionReason = answer.reason;
      }
      // Without permissionDecision, Claude applies updatedInput and keeps its own permission
      // flow (2.1.330 source): a rewrite never doubles as an approval.
      // PreModelSwitch shares the permission answer but has no input to rewrite (its schema refuses updatedInput).
      if (answer.rewrite && eventName === "PreToolUse") specific.updatedInput = answer.rewrite;
    }
  } else if (rule.block === "permission-request") {
    // A permission dialog is already an ask; "allow" would approve for the user, so only deny is said.
    if (answer.verdict === "deny") specific.decision = { behavior: "deny", message: answer.reason, ...(answer.halt && { interrupt: true }) };
  } else if (rule.block === "decision") {
    // An ask the event cannot put to the user is not an approval: it blocks, with its reason.
    if (answer.verdict !== "allow") {
      body.decision = "block";
      body.reason = answer.reason;
    }
  } else if (answer.verdict !== "allow") {
    unblockable = answer.reason;
  }

  if (rule.context && answer.context) specific.additionalContext = answer.context;
  // Claude Code 2.1.330 checks it against the tool's output shape and keeps the original when it does not fit.
  if (answer.output && eventName === "PostToolUse") specific.updatedToolOutput = answer.output.value;
  if (answer.halt && !(rule.block === "permission-request" && answer.verdict === "deny")) {
    body.continue = false;
    body.stopReason = answer.halt.reason;
  }
  // systemMessage reaches the user, never the model (real-clients.md §7).
  const userText = joinText(answer.userMessage, unblockable);
  if (userText) body.systemMessage = userText;
  if (answer.suppressOutput) body.suppressOutput = true;
  if (Object.keys(specific).length > 0) body.hookSpecificOutput = { hookEventName: eventName, ...specific };
  return jsonOrNothing(body);
}

/** Claude Code names the project in CLAUDE_PROJECT_DIR (research §1.1). */
const PROJECT_DIR_ENV = ["CLAUDE_PROJECT_DIR"];

export const claudeCode: AgentProtocol = {
  name: "claude",
  events: EVENTS,
  projectDirEnv: PROJECT_DIR_ENV,
  /** updatedInput, on PreToolUse only (permission style). */
  acceptsRewrite: (event) => agentEventNameOf(event, EVENTS) === "PreToolUse",
  /** updatedToolOutput, on PostToolUse (every tool, MCP ones included). */
  acceptsOutputRewrite: (event) => agentEventNameOf(event, EVENTS) === "PostToolUse",
  /** The lingua franca: any payload naming its event in Claude's field (VS Code's camelCase variant too). Asked last. */
  detect: (payload) =>
    typeof payload === "object" &&
    payload !== null &&
    (typeof (payload as Record<string, unknown>).hook_event_name === "string" ||
      typeof (payload as Record<string, unknown>).hookEventName === "string"),
  decode: (payload: unknown, hint?: DecodeHint) =>
    decodeHookPayload({ agent: "claude", label: "Claude Code", events: EVENTS, tools: {}, projectDirEnv: PROJECT_DIR_ENV }, payload, hint),
  encode: encodeClaude,
  failure: (reason: string, event: NativeEvent | undefined, options: FailureOptions) =>
    failure(
      {
        encode: encodeClaude,
        // No event name to put in hookSpecificOutput: exit 2 blocks on every event that can block,
        // and `decision: "block"` is valid on all of them (exit 2 still reads stdout JSON).
        blockUnknownEvent: (reason) => exitTwo(reason, { decision: "block", reason }),
      },
      reason,
      event,
      options,
    ),
  /** Its `type: "http"` hooks read a body only: a command hook's stderr warning becomes the systemMessage the user sees. */
  httpWarning: (warning) => ({ systemMessage: warning }),
};
