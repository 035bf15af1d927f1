import type { NativeEvent } from "../../../core/events/types.ts";
import { TOOL_EVENTS } from "../../../core/events/names.ts";
import type { AgentName, DecodeHint } from "./types.ts";
import { resolveEvent, type EventTable } from "./event-names.ts";
import { buildNativeEvent, type EventParts } from "./native-event.ts";
import {
  MAX_ID_CHARS,
  MAX_PATH_CHARS,
  objectOrJsonObject,
  optionalBoolean,
  optionalString,
  readPayload,
  remainingFields,
  type Payload,
} from "./payload.ts";
import { timestampField } from "./timestamp.ts";
import { normaliseToolName, toolNameField, type ToolNameMap } from "./tool-names.ts";

/**
 * The hook payload most agents send, in the shape Claude Code made the lingua franca (research
 * §0): snake_case fields, `hook_event_name`, `session_id`, `tool_name`/`tool_input`. Claude Code,
 * Codex, Gemini CLI, Qwen Code and Copilot CLI's "VS Code compatible" mode all send it, with
 * different names inside; each agent's protocol.ts says which.
 */
export interface HookPayloadDialect {
  readonly agent: AgentName;
  /** For messages: "Claude Code", "Gemini CLI" … */
  readonly label: string;
  readonly events: EventTable;
  readonly tools: ToolNameMap;
  /** Environment variables naming the project root, most trusted first. */
  readonly projectDirEnv: readonly string[];
  /** Where the tool's result is (Copilot's VS Code mode says `tool_result`). */
  readonly toolResponseField?: string;
  /** Dialect-specific corrections once the common fields are read. */
  readonly refine?: (parts: EventParts, payload: Payload) => EventParts;
}

const COMMON_FIELDS = ["hook_event_name", "hookEventName", "session_id", "sessionId", "timestamp", "cwd", "prompt", "stop_hook_active"];

export function decodeHookPayload(dialect: HookPayloadDialect, input: unknown, hint: DecodeHint | undefined): NativeEvent {
  const payload = readPayload(input, dialect.label);
  const responseField = dialect.toolResponseField ?? "tool_response";
  // VS Code's agent hooks send the same fields with camelCase ids (research §6).
  const payloadName = optionalString(payload, "hook_event_name", 100) ?? optionalString(payload, "hookEventName", 100);
  const { agentEventName, eventType } = resolveEvent(dialect.agent, dialect.events, payloadName, hint?.eventName, "hook_event_name");
  const toolName = toolNameField(payload, "tool_name", TOOL_EVENTS.has(eventType));
  const parts: EventParts = {
    agent: dialect.agent,
    agentEventName,
    eventType,
    sessionId: optionalString(payload, "session_id", MAX_ID_CHARS) ?? optionalString(payload, "sessionId", MAX_ID_CHARS),
    timestamp: timestampField(payload, "timestamp"),
    cwd: optionalString(payload, "cwd", MAX_PATH_CHARS),
    projectDirEnv: dialect.projectDirEnv,
    ...(toolName !== undefined && {
      tool: {
        ...normaliseToolName(toolName, dialect.tools),
        input: objectOrJsonObject(payload, "tool_input"),
        response: payload[responseField],
        useId: optionalString(payload, "tool_use_id", MAX_ID_CHARS),
      },
    }),
    prompt: optionalString(payload, "prompt"),
    stopHookActive: optionalBoolean(payload, "stop_hook_active"),
    // Tool fields without a tool name stay as they came (an odd payload is still the agent's data).
    extra: remainingFields(
      payload,
      toolName === undefined ? COMMON_FIELDS : [...COMMON_FIELDS, "tool_name", "tool_input", "tool_use_id", responseField],
    ),
  };
  return buildNativeEvent(dialect.refine ? dialect.refine(parts, payload) : parts, hint);
}
