import type { AgentDoctor } from "../shared/doctor.ts";

/** What doctor sends through Copilot CLI's preToolUse entry: reading the project's README. */
export const doctor: AgentDoctor = {
  probe: {
    event: "preToolUse",
    payload: (p, sessionId) => ({ sessionId, timestamp: Date.now(), cwd: p, toolName: "view", toolArgs: { path: `${p}/README.md` } }),
  },
};
