import type { ToolNameMap } from "../shared/protocol/tool-names.ts";

/** Copilot CLI's names (research §5: cli-hooks-reference "Tool names for hook matching"). */
export const COPILOT_TOOLS: ToolNameMap = {
  bash: "Bash",
  powershell: "PowerShell",
  view: "Read",
  create: "Write",
  edit: "Edit",
  glob: "Glob",
  grep: "Grep",
  web_fetch: "WebFetch",
  task: "Agent",
  ask_user: "AskUserQuestion",
};
