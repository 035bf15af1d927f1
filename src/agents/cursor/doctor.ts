import type { AgentDoctor } from "../shared/doctor.ts";

/** What doctor sends through Cursor's preToolUse entry: reading the project's README. */
export const doctor: AgentDoctor = {
  probe: {
    event: "preToolUse",
    payload: (p, sessionId) => ({
      conversation_id: sessionId,
      generation_id: "doctor",
      hook_event_name: "preToolUse",
      workspace_roots: [p],
      tool_name: "Read",
      tool_input: { file_path: `${p}/README.md` },
    }),
  },
};
