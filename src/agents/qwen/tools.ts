import type { ToolNameMap } from "../shared/protocol/tool-names.ts";

/**
 * Qwen Code 0.24.4's built-ins (packages/core ToolNames, and the legacy names it still accepts:
 * replace, search_file_content, task). Gemini CLI's names where Qwen kept them; its edit tool is
 * `edit`, with Claude's file_path/old_string/new_string.
 */
export const QWEN_TOOLS: ToolNameMap = {
  run_shell_command: "Bash",
  write_file: "Write",
  edit: "Edit",
  replace: "Edit",
  notebook_edit: "NotebookEdit",
  read_file: "Read",
  glob: "Glob",
  grep_search: "Grep",
  search_file_content: "Grep",
  list_directory: "LS",
  web_fetch: "WebFetch",
  web_search: "WebSearch",
  todo_write: "TodoWrite",
  agent: "Agent",
  task: "Agent",
  skill: "Skill",
  ask_user_question: "AskUserQuestion",
  enter_plan_mode: "EnterPlanMode",
  exit_plan_mode: "ExitPlanMode",
};
