import type { AgentDoctor } from "../shared/doctor.ts";

/** What doctor sends through Qwen Code's PreToolUse entry: reading the project's README. */
export const doctor: AgentDoctor = {
  probe: {
    event: "PreToolUse",
    payload: (p, sessionId) => ({
      session_id: sessionId,
      transcript_path: "",
      cwd: p,
      hook_event_name: "PreToolUse",
      timestamp: new Date().toISOString(),
      permission_mode: "default",
      tool_name: "read_file",
      tool_input: { absolute_path: `${p}/README.md` },
      tool_use_id: sessionId,
    }),
  },
};
