import { failed as fail, type AgentCheck, type AgentDoctor, type DoctorIO, type DoctorTarget } from "../shared/doctor.ts";

/** The plugin names the build it asks directly: a plugin of this executable written by another build never reaches the daemon directly. */
function pluginBuildCheck(io: DoctorIO, { scope, file, text }: DoctorTarget): AgentCheck[] {
  const build = /^const BUILD = "([^"]*)";$/m.exec(text)?.[1];
  const executable = /^const HOOKBOX = "([^"]*)";$/m.exec(text)?.[1];
  // Only this binary's own build is known here.
  if (executable === undefined || executable !== io.binaryPath() || build === io.buildId) return [];
  return [
    fail(
      `opencode plugin (${scope})`,
      `${file} was written by another build of ${executable} (${build}, now ${io.buildId}): the daemon will not answer it directly, so every call starts hookbox emit. Run hookbox install-agent opencode${scope === "project" ? "" : ` --${scope}`} again`,
    ),
  ];
}

export const doctor: AgentDoctor = {
  /** What doctor sends through the plugin's tool.execute.before (the native event its fallback emit gets): reading the project's README. */
  probe: {
    event: "tool.execute.before",
    payload: (p, sessionId) => ({
      event_type: "PreToolUse",
      agent: "opencode",
      session_id: sessionId,
      cwd: p,
      tool_name: "Read",
      agent_tool_name: "read",
      tool_input: { filePath: `${p}/README.md` },
    }),
  },
  checks: async (io, target) => pluginBuildCheck(io, target),
};
