import { DOCTOR_SESSION_ID } from "../../decide/audit/record.ts";
import type { InstallAgent } from "../../agents/installers.ts";

/** A harmless pre-tool call in one agent's own payload shape, and the entry (by the agent's event name) it goes through. */
export interface Probe {
  readonly event: string;
  readonly payload: (project: string) => Record<string, unknown>;
}

/** What doctor sends through each agent's pre-tool entry: reading the project's README. */
export const PROBES: Readonly<Record<InstallAgent, Probe>> = {
  claude: {
    event: "PreToolUse",
    payload: (p) => ({
      session_id: DOCTOR_SESSION_ID,
      transcript_path: "",
      cwd: p,
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_input: { file_path: `${p}/README.md` },
    }),
  },
  gemini: {
    event: "BeforeTool",
    payload: (p) => ({
      session_id: DOCTOR_SESSION_ID,
      transcript_path: "",
      cwd: p,
      hook_event_name: "BeforeTool",
      timestamp: new Date().toISOString(),
      tool_name: "read_file",
      tool_input: { absolute_path: `${p}/README.md` },
    }),
  },
  codex: {
    event: "PreToolUse",
    payload: (p) => ({
      session_id: DOCTOR_SESSION_ID,
      turn_id: "doctor",
      cwd: p,
      hook_event_name: "PreToolUse",
      model: "doctor",
      tool_name: "Bash",
      tool_input: { command: "true" },
    }),
  },
  cursor: {
    event: "preToolUse",
    payload: (p) => ({
      conversation_id: DOCTOR_SESSION_ID,
      generation_id: "doctor",
      hook_event_name: "preToolUse",
      workspace_roots: [p],
      tool_name: "Read",
      tool_input: { file_path: `${p}/README.md` },
    }),
  },
  copilot: {
    event: "preToolUse",
    payload: (p) => ({ sessionId: DOCTOR_SESSION_ID, timestamp: Date.now(), cwd: p, toolName: "view", toolArgs: { path: `${p}/README.md` } }),
  },
  qwen: {
    event: "PreToolUse",
    payload: (p) => ({
      session_id: DOCTOR_SESSION_ID,
      transcript_path: "",
      cwd: p,
      hook_event_name: "PreToolUse",
      timestamp: new Date().toISOString(),
      permission_mode: "default",
      tool_name: "read_file",
      tool_input: { absolute_path: `${p}/README.md` },
      tool_use_id: DOCTOR_SESSION_ID,
    }),
  },
  opencode: {
    event: "tool.execute.before",
    payload: (p) => ({
      event_type: "PreToolUse",
      agent: "opencode",
      session_id: DOCTOR_SESSION_ID,
      cwd: p,
      tool_name: "Read",
      agent_tool_name: "read",
      tool_input: { filePath: `${p}/README.md` },
    }),
  },
};
