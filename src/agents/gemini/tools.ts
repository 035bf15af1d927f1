import type { ToolNameMap } from "../shared/protocol/tool-names.ts";

/** Gemini CLI built-ins (research §2.2; `gemini hooks migrate --from-claude` maps the same pairs). */
export const GEMINI_TOOLS: ToolNameMap = {
  run_shell_command: "Bash",
  write_file: "Write",
  replace: "Edit",
  read_file: "Read",
  read_many_files: "Read",
  glob: "Glob",
  grep_search: "Grep",
  grep: "Grep",
  list_directory: "LS",
  ls: "LS",
  web_fetch: "WebFetch",
  google_web_search: "WebSearch",
  write_todos: "TodoWrite",
  ask_user: "AskUserQuestion",
  invoke_agent: "Agent",
  enter_plan_mode: "EnterPlanMode",
  exit_plan_mode: "ExitPlanMode",
  activate_skill: "Skill",
};
