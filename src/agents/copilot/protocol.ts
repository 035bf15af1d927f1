import { CANONICAL_EVENTS } from "../../core/events/names.ts";
import type { Decision, NativeEvent } from "../../core/events/types.ts";
import type { AgentOutput, AgentProtocol, DecodeHint, FailureOptions } from "../shared/protocol/types.ts";
import { joinText, summarize } from "../shared/protocol/answer.ts";
import { refineApplyPatch } from "../shared/protocol/apply-patch.ts";
import { decodeHookPayload } from "../shared/protocol/hook-payload.ts";
import { eventTable, resolveEvent } from "../shared/protocol/event-names.ts";
import { failure } from "../shared/protocol/failure.ts";
import { buildNativeEvent, type EventParts } from "../shared/protocol/native-event.ts";
import { NO_OUTPUT, jsonOrNothing, jsonOutput } from "../shared/protocol/output.ts";
import {
  MAX_ID_CHARS,
  MAX_PATH_CHARS,
  objectOrJsonObject,
  optionalString,
  readPayload,
  remainingFields,
  snakeCase,
  type Payload,
} from "../shared/protocol/payload.ts";
import { timestampField } from "../shared/protocol/timestamp.ts";
import { normaliseToolName, toolNameField } from "../shared/protocol/tool-names.ts";
import { COPILOT_TOOLS } from "./tools.ts";

/**
 * Copilot CLI's camelCase event names → native (research §5): the spelling `install-agent copilot`
 * writes, which sends camelCase payloads (`sessionId`, `toolName`, `toolArgs`).
 */
export const COPILOT_EVENT_NAMES: Readonly<Record<string, string>> = {
  sessionStart: "SessionStart",
  sessionEnd: "SessionEnd",
  userPromptSubmitted: "UserPromptSubmit",
  preToolUse: "PreToolUse",
  postToolUse: "PostToolUse",
  postToolUseFailure: "PostToolUseFailure",
  agentStop: "Stop",
  subagentStart: "SubagentStart",
  subagentStop: "SubagentStop",
  errorOccurred: "copilot.error_occurred",
  preCompact: "PreCompact",
  permissionRequest: "PermissionRequest",
  notification: "Notification",
};

/**
 * Copilot CLI picks the payload's casing from how the event is spelled in its config (research §5):
 * `preToolUse` sends camelCase fields and no event name, `PreToolUse` sends VS Code's snake_case.
 */
const EVENTS = eventTable({
  ...COPILOT_EVENT_NAMES,
  SessionStart: "SessionStart",
  SessionEnd: "SessionEnd",
  UserPromptSubmit: "UserPromptSubmit",
  PreToolUse: "PreToolUse",
  PostToolUse: "PostToolUse",
  PostToolUseFailure: "PostToolUseFailure",
  Stop: "Stop",
  SubagentStop: "SubagentStop",
  ErrorOccurred: "copilot.error_occurred",
  PreCompact: "PreCompact",
  PermissionRequest: "PermissionRequest",
  Notification: "Notification",
});

const VSCODE_MODE_NAMES: ReadonlySet<string> = new Set([...CANONICAL_EVENTS, "ErrorOccurred"]);
/** Names Gemini CLI also sends with an ISO timestamp, but always with a transcript_path. */
const NAMES_SHARED_WITH_GEMINI: ReadonlySet<string> = new Set(["SessionStart", "SessionEnd", "Notification"]);

const CAMEL_FIELDS = ["hook_event_name", "sessionId", "timestamp", "cwd", "toolName", "toolArgs", "toolResult", "prompt"];

function isCamelCase(payload: Payload): boolean {
  return typeof payload.sessionId === "string" || "toolName" in payload || "toolArgs" in payload;
}

/**
 * Tool arguments are typed `unknown`: an object, a JSON string holding one (research §5), or — for
 * a free-form tool such as apply_patch, which Copilot CLI 1.0.102 offers GPT models — the raw
 * text (in both dialects; VS Code's names the tool Edit), which becomes `{ input: <text> }`, the
 * field Chat Completions names it by.
 */
function toolArgs(payload: Payload, field: string): { readonly input: Record<string, unknown> | undefined; readonly freeForm: boolean } {
  const value = payload[field];
  if (typeof value === "string" && !/^\s*[[{]/.test(value)) return { input: { input: value }, freeForm: true };
  return { input: objectOrJsonObject(payload, field), freeForm: false };
}

/** Marks a free-form input (a rewrite goes back as text), and reads a patch's files as Codex's apply_patch. */
function freeFormParts(parts: EventParts, freeForm: boolean): EventParts {
  if (!freeForm) return parts;
  const marked = { ...parts, extra: { ...parts.extra, free_form_input: true } };
  const text = parts.tool?.input?.input;
  return typeof text === "string" && text.trimStart().startsWith("*** Begin Patch") ? refineApplyPatch(marked, text) : marked;
}

function decodeCamelCase(payload: Payload, hint: DecodeHint | undefined): NativeEvent {
  // Only the notification payload names its event; the rest rely on `hookbox emit <event>`.
  const { agentEventName, eventType } = resolveEvent(
    "copilot",
    EVENTS,
    optionalString(payload, "hook_event_name", 100),
    hint?.eventName,
    "hook_event_name",
  );
  const toolName = toolNameField(
    payload,
    "toolName",
    eventType === "PreToolUse" || eventType === "PostToolUse" || eventType === "PostToolUseFailure",
  );
  const args = toolName === undefined ? undefined : toolArgs(payload, "toolArgs");
  const parts: EventParts = {
    agent: "copilot",
    agentEventName,
    eventType,
    sessionId: optionalString(payload, "sessionId", MAX_ID_CHARS),
    timestamp: timestampField(payload, "timestamp"),
    cwd: optionalString(payload, "cwd", MAX_PATH_CHARS),
    ...(toolName !== undefined && { tool: { ...normaliseToolName(toolName, COPILOT_TOOLS), input: args?.input, response: payload.toolResult } }),
    prompt: optionalString(payload, "prompt"),
    extra: remainingFields(payload, CAMEL_FIELDS, snakeCase),
  };
  return buildNativeEvent(freeFormParts(parts, args?.freeForm === true), hint);
}

/** A rewrite in the shape the tool took: a free-form tool's text goes back as text. */
function modifiedArgs(rewrite: Readonly<Record<string, unknown>>, event: NativeEvent): unknown {
  return event.free_form_input === true && typeof rewrite.input === "string" ? rewrite.input : rewrite;
}

/**
 * What each event reads back (cli-hooks-reference "decision control", and the hook output types
 * Copilot CLI 1.0.102 ships in copilot-sdk/types.d.ts: additionalContext on sessionStart,
 * userPromptSubmitted, preToolUse and postToolUse, `decision: "block"` on userPromptSubmitted);
 * everything else is ignored by Copilot.
 */
export function encodeCopilot(decision: Decision, event: NativeEvent): AgentOutput {
  const answer = summarize(decision);
  switch (event.event_type) {
    case "PreToolUse": {
      // Exit codes never block in Copilot: the JSON answer is the only way to say no. It has no halt, so a halt blocks the tool.
      const denied = answer.verdict === "deny" || answer.halt !== undefined;
      const reason = answer.verdict !== "allow" ? answer.reason : answer.halt?.reason;
      return jsonOrNothing({
        ...(denied
          ? { permissionDecision: "deny", permissionDecisionReason: reason }
          : answer.verdict === "ask"
            ? { permissionDecision: "ask", permissionDecisionReason: reason }
            : {}),
        ...(!denied && answer.rewrite && { modifiedArgs: modifiedArgs(answer.rewrite, event) }),
        ...(!denied && answer.context && { additionalContext: answer.context }),
      });
    }
    case "PostToolUse": {
      // The tool already ran: a no can only be told to the model, beside any context.
      const context = joinText(answer.verdict !== "allow" ? answer.reason : undefined, answer.context);
      return context ? jsonOutput({ additionalContext: context }) : NO_OUTPUT;
    }
    case "UserPromptSubmit": {
      // An ask Copilot cannot put to the user here refuses the prompt, with the question as the reason; so does a halt, which Copilot has no word for.
      const reason = answer.verdict !== "allow" ? answer.reason : answer.halt?.reason;
      return jsonOrNothing({
        ...(reason !== undefined && { decision: "block", reason }),
        ...(answer.context && { additionalContext: answer.context }),
      });
    }
    case "PermissionRequest":
      if (answer.verdict !== "deny" && !answer.halt) return NO_OUTPUT;
      return jsonOutput({
        behavior: "deny",
        message: answer.verdict === "deny" ? answer.reason : answer.halt?.reason,
        ...(answer.halt && { interrupt: true }),
      });
    case "Stop":
    case "SubagentStop":
      return answer.verdict !== "allow" ? jsonOutput({ decision: "block", reason: answer.reason }) : NO_OUTPUT;
    case "SessionStart":
    case "Notification":
    case "SubagentStart":
    case "PostToolUseFailure":
      return answer.context ? jsonOutput({ additionalContext: answer.context }) : NO_OUTPUT;
    default:
      return NO_OUTPUT;
  }
}

export const copilot: AgentProtocol = {
  name: "copilot",
  tools: COPILOT_TOOLS,
  /** Copilot CLI sets no project variable: its payload's cwd is the project. */
  projectDirEnv: [],
  events: EVENTS,
  /** modifiedArgs, on preToolUse only. */
  acceptsRewrite: (event) => event.event_type === "PreToolUse",
  detect(payload) {
    if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return false;
    const record = payload as Payload;
    // VS Code's own agent hooks also say sessionId, but with hookEventName; Claude's adapter reads those.
    if (isCamelCase(record)) return typeof record.hookEventName !== "string";
    const name = record.hook_event_name;
    if (typeof name !== "string" || !VSCODE_MODE_NAMES.has(name) || typeof record.timestamp !== "string") return false;
    return !(NAMES_SHARED_WITH_GEMINI.has(name) && typeof record.transcript_path === "string");
  },
  decode(input: unknown, hint?: DecodeHint) {
    const payload = readPayload(input, "Copilot CLI");
    if (isCamelCase(payload)) return decodeCamelCase(payload, hint);
    const args = toolArgs(payload, "tool_input");
    const dialect = {
      agent: "copilot",
      label: "Copilot CLI",
      events: EVENTS,
      tools: COPILOT_TOOLS,
      projectDirEnv: [],
      toolResponseField: "tool_result",
      refine: (parts: EventParts) => freeFormParts(parts, args.freeForm),
    } as const;
    return decodeHookPayload(dialect, args.freeForm ? { ...payload, tool_input: args.input } : payload, hint);
  },
  encode: encodeCopilot,
  failure: (reason: string, event: NativeEvent | undefined, options: FailureOptions) =>
    failure(
      {
        encode: encodeCopilot,
        // Exit 0 with JSON: a non-zero exit makes Copilot skip the answer. Both tool-gating answers at once.
        blockUnknownEvent: (reason) =>
          jsonOutput({ permissionDecision: "deny", permissionDecisionReason: reason, behavior: "deny", message: reason }),
      },
      reason,
      event,
      options,
    ),
};
