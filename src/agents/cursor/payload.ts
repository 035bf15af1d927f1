import type { NativeEvent } from "../../core/events/types.ts";
import type { DecodeHint } from "../shared/protocol/types.ts";
import { eventTable, resolveEvent } from "../shared/protocol/event-names.ts";
import { buildNativeEvent, type EventParts } from "../shared/protocol/native-event.ts";
import {
  MAX_ID_CHARS,
  MAX_PATH_CHARS,
  invalid,
  objectOrJsonObject,
  optionalString,
  readPayload,
  remainingFields,
  type Payload,
} from "../shared/protocol/payload.ts";
import { normaliseToolName, toolNameField } from "../shared/protocol/tool-names.ts";
import { CURSOR_TOOLS } from "./tools.ts";

/**
 * Research §3.2–3.3. The agent's shell, MCP, read and edit hooks are tool events with a
 * synthesised tool (beforeShellExecution → PreToolUse on Bash); Tab completions and the agent's
 * own text are not tool calls and keep a cursor.* name.
 */
export const CURSOR_EVENTS = eventTable({
  preToolUse: "PreToolUse",
  beforeShellExecution: "PreToolUse",
  beforeMCPExecution: "PreToolUse",
  beforeReadFile: "PreToolUse",
  postToolUse: "PostToolUse",
  afterShellExecution: "PostToolUse",
  afterMCPExecution: "PostToolUse",
  afterFileEdit: "PostToolUse",
  postToolUseFailure: "PostToolUseFailure",
  beforeSubmitPrompt: "UserPromptSubmit",
  stop: "Stop",
  subagentStart: "SubagentStart",
  subagentStop: "SubagentStop",
  sessionStart: "SessionStart",
  sessionEnd: "SessionEnd",
  preCompact: "PreCompact",
  afterAgentResponse: "cursor.after_agent_response",
  afterAgentThought: "cursor.after_agent_thought",
  beforeTabFileRead: "cursor.before_tab_file_read",
  afterTabFileEdit: "cursor.after_tab_file_edit",
});

const COMMON_FIELDS = ["hook_event_name", "conversation_id", "session_id"];

type ToolPart = NonNullable<EventParts["tool"]>;
interface ToolExtraction {
  readonly tool: ToolPart;
  /** Payload fields the tool now carries, not to be repeated at the top level. */
  readonly consumed: readonly string[];
}

function parsedOrRaw(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The tool an event is about, in Claude's terms; Cursor's dedicated events carry no tool_name of their own. */
function toolOf(eventName: string, payload: Payload): ToolExtraction | undefined {
  const path = (field: string) => optionalString(payload, field, MAX_PATH_CHARS);
  switch (eventName) {
    case "beforeShellExecution":
    case "afterShellExecution": {
      const command = optionalString(payload, "command");
      if (command === undefined) throw invalid("command: missing — a shell event names its command", "command");
      const output = optionalString(payload, "output");
      return {
        tool: { tool_name: "Bash", agent_tool_name: "Shell", input: { command }, ...(output !== undefined && { response: { output } }) },
        consumed: ["command", "output"],
      };
    }
    case "beforeMCPExecution":
    case "afterMCPExecution": {
      const name = toolNameField(payload, "tool_name", true) as string;
      // MCP arguments arrive as a JSON string (research §9.3).
      const input = objectOrJsonObject(payload, "tool_input");
      return {
        tool: { tool_name: name, agent_tool_name: name, input, response: parsedOrRaw(optionalString(payload, "result_json")) },
        consumed: ["tool_name", "tool_input", "result_json"],
      };
    }
    case "beforeReadFile":
      return { tool: { tool_name: "Read", agent_tool_name: "Read", input: { file_path: requiredPath(path("file_path")) } }, consumed: ["file_path"] };
    case "afterFileEdit":
      return {
        tool: { tool_name: "Edit", agent_tool_name: "Edit", input: { file_path: requiredPath(path("file_path")), edits: payload.edits } },
        consumed: ["file_path", "edits"],
      };
    default: {
      const name = toolNameField(
        payload,
        "tool_name",
        eventName === "preToolUse" || eventName === "postToolUse" || eventName === "postToolUseFailure",
      );
      if (name === undefined) return undefined;
      return {
        tool: {
          ...normaliseToolName(name, CURSOR_TOOLS),
          input: objectOrJsonObject(payload, "tool_input"),
          response: payload.tool_output ?? payload.tool_response,
          useId: optionalString(payload, "tool_use_id", MAX_ID_CHARS),
        },
        consumed: ["tool_name", "tool_input", "tool_output", "tool_response", "tool_use_id"],
      };
    }
  }
}

function requiredPath(path: string | undefined): string {
  if (path === undefined) throw invalid("file_path: missing — a file event names its file", "file_path");
  return path;
}

function firstWorkspaceRoot(payload: Payload): string | undefined {
  const roots = payload.workspace_roots;
  if (roots === undefined || roots === null) return undefined;
  if (!Array.isArray(roots) || (roots.length > 0 && typeof roots[0] !== "string"))
    throw invalid("workspace_roots: expected a list of paths", "workspace_roots");
  return roots[0] as string | undefined;
}

/** Cursor names the project in CURSOR_PROJECT_DIR. */
export const CURSOR_PROJECT_DIR_ENV: readonly string[] = ["CURSOR_PROJECT_DIR"];

export function decodeCursor(input: unknown, hint: DecodeHint | undefined): NativeEvent {
  const payload = readPayload(input, "Cursor");
  const { agentEventName, eventType: resolvedType } = resolveEvent(
    "cursor",
    CURSOR_EVENTS,
    optionalString(payload, "hook_event_name", 100),
    hint?.eventName,
    "hook_event_name",
  );
  const tool = toolOf(agentEventName, payload);
  // Cursor runs its stop hook when the user aborts the turn too (status "aborted", research §3.3):
  // that is the user's stop, not the agent finishing — SessionStop, which Stop gates never see.
  const eventType = agentEventName === "stop" && payload.status === "aborted" ? "SessionStop" : resolvedType;
  // Cursor's loop guard is loop_count (research §8.2): a stop after a follow-up is Claude's stop_hook_active.
  const loopCount = payload.loop_count;
  const parts: EventParts = {
    agent: "cursor",
    agentEventName,
    eventType,
    sessionId: optionalString(payload, "conversation_id", MAX_ID_CHARS) ?? optionalString(payload, "session_id", MAX_ID_CHARS),
    cwd: optionalString(payload, "cwd", MAX_PATH_CHARS),
    workspaceRoot: firstWorkspaceRoot(payload),
    projectDirEnv: CURSOR_PROJECT_DIR_ENV,
    ...(tool && { tool: tool.tool }),
    prompt: optionalString(payload, "prompt"),
    ...(eventType === "Stop" || eventType === "SubagentStop" ? { stopHookActive: typeof loopCount === "number" && loopCount > 0 } : {}),
    extra: remainingFields(payload, [...COMMON_FIELDS, "cwd", "prompt", ...(tool?.consumed ?? [])]),
  };
  return buildNativeEvent(parts, hint);
}
