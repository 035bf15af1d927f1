import type { ToolNameMap } from "../shared/protocol/tool-names.ts";

/** Cursor's preToolUse names (research §3.3, secondary sources). */
export const CURSOR_TOOLS: ToolNameMap = {
  Shell: "Bash",
  StrReplace: "Edit",
  Task: "Agent",
};
