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

/**
 * Hookbox's tool names — Claude Code's own, old ones included (Task before Agent): never another
 * dialect's, whatever the agents' maps (src/agents/<agent>/tools.ts) say.
 */
export const CANONICAL_TOOL_NAMES: ReadonlySet<string> = new Set([
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
