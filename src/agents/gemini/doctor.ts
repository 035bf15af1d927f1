import type { AgentDoctor } from "../shared/doctor.ts";

/** What doctor sends through Gemini CLI's BeforeTool entry: reading the project's README. */
export const doctor: AgentDoctor = {
  probe: {
    event: "BeforeTool",
    payload: (p, sessionId) => ({
      session_id: sessionId,
      transcript_path: "",
      cwd: p,
      hook_event_name: "BeforeTool",
      timestamp: new Date().toISOString(),
      tool_name: "read_file",
      tool_input: { absolute_path: `${p}/README.md` },
    }),
  },
};
