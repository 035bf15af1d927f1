import type { Payload } from "./payload.ts";
import { MAX_ID_CHARS, invalid, optionalString } from "./payload.ts";

/**
 * Tool names are normalised to Claude Code's so one hook matcher (`tool: "Bash"`, `"Write|Edit"`)
 * works across agents; the agent's own name stays in `agent_tool_name`. tool_input is left in the
 * agent's shape on purpose: a hook's rewrite (`data`) goes back to the same agent unchanged.
 */
export type ToolNameMap = Readonly<Record<string, string>>;

export interface ToolNames {
  readonly tool_name: string;
  readonly agent_tool_name: string;
}

export function normaliseToolName(agentToolName: string, map: ToolNameMap): ToolNames {
  return { tool_name: Object.hasOwn(map, agentToolName) ? (map[agentToolName] as string) : agentToolName, agent_tool_name: agentToolName };
}

/** The tool name a payload carries, required on tool events. */
export function toolNameField(payload: Payload, field: string, required: boolean): string | undefined {
  const name = optionalString(payload, field, MAX_ID_CHARS);
  if (name === undefined && required) throw invalid(`${field}: missing — a tool event names its tool`, field);
  if (name !== undefined && name.trim() === "") throw invalid(`${field}: empty`, field);
  return name;
}

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

/** Cursor's preToolUse names (research §3.3, secondary sources). */
export const CURSOR_TOOLS: ToolNameMap = {
  Shell: "Bash",
  StrReplace: "Edit",
  Task: "Agent",
};

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

/** Codex sends Claude's names except for its patch tool, which Codex itself matches as Edit and Write (research §4.3). */
export const CODEX_TOOLS: ToolNameMap = {};

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

/** Claude Code's own tool names, old ones included (Task before Agent): never another dialect's, whatever the maps above say. */
export const CLAUDE_TOOL_NAMES: ReadonlySet<string> = new Set([
  "Bash",
  "PowerShell",
  "BashOutput",
  "KillShell",
  "Write",
  "Edit",
  "MultiEdit",
  "NotebookEdit",
  "Read",
  "Glob",
  "Grep",
  "LS",
  "WebFetch",
  "WebSearch",
  "Agent",
  "Task",
  "TodoWrite",
  "AskUserQuestion",
  "EnterPlanMode",
  "ExitPlanMode",
  "Skill",
]);
