import { parseEvent } from "../../../core/events/parse.ts";
import type { NativeEvent } from "../../../core/events/types.ts";
import type { AgentName, DecodeHint } from "./types.ts";
import type { ToolNames } from "./tool-names.ts";

/** What an adapter extracted from its payload; `buildNativeEvent` turns it into a validated NativeEvent. */
export interface EventParts {
  readonly agent: AgentName;
  readonly agentEventName: string;
  readonly eventType: string;
  readonly sessionId?: string;
  readonly timestamp?: string;
  /** Where the agent runs the hook (the payload's cwd). */
  readonly cwd?: string;
  /** The project root the agent reports in the payload (Cursor's workspace_roots[0]). */
  readonly workspaceRoot?: string;
  /** Environment variables naming the project root, most trusted first (CLAUDE_PROJECT_DIR …). */
  readonly projectDirEnv?: readonly string[];
  readonly tool?: ToolNames & { readonly input?: Record<string, unknown>; readonly response?: unknown; readonly useId?: string };
  readonly prompt?: string;
  readonly stopHookActive?: boolean;
  /** Every other payload field, already in snake_case; native fields win on a clash. */
  readonly extra: Readonly<Record<string, unknown>>;
}

/** Windows paths (C:\…) cannot be `${workspace}` today: src/core/events/parse.ts requires a POSIX absolute path. */
function isPosixAbsolute(path: string | undefined): path is string {
  return typeof path === "string" && path.startsWith("/") && path.length <= 4096;
}

/**
 * The native event's `cwd` is the project directory (`${workspace}` in grants), which must not move
 * when the agent `cd`s: prefer the agent's project variable, then the workspace root it reports,
 * then its working directory. The agent's own working directory stays visible as `agent_cwd`.
 */
function projectDir(parts: EventParts, env: Readonly<Record<string, string | undefined>>): string | undefined {
  for (const name of parts.projectDirEnv ?? []) {
    const value = env[name];
    if (isPosixAbsolute(value)) return value;
  }
  if (isPosixAbsolute(parts.workspaceRoot)) return parts.workspaceRoot;
  return isPosixAbsolute(parts.cwd) ? parts.cwd : undefined;
}

export function buildNativeEvent(parts: EventParts, hint: DecodeHint | undefined): NativeEvent {
  const now = hint?.now ?? (() => new Date());
  const cwd = projectDir(parts, hint?.env ?? {});
  const native: Record<string, unknown> = {
    event_type: parts.eventType,
    agent: parts.agent,
    agent_event_name: parts.agentEventName,
    session_id: parts.sessionId,
    timestamp: parts.timestamp ?? now().toISOString(),
    cwd,
    agent_cwd: parts.cwd !== undefined && parts.cwd !== cwd ? parts.cwd : undefined,
    tool_name: parts.tool?.tool_name,
    agent_tool_name: parts.tool?.agent_tool_name,
    tool_input: parts.tool?.input,
    tool_response: parts.tool?.response,
    tool_use_id: parts.tool?.useId,
    prompt: parts.prompt,
    stop_hook_active: parts.stopHookActive,
  };
  const defined = Object.entries(native).filter(([, value]) => value !== undefined);
  const extra = Object.entries(parts.extra).filter(([key]) => !Object.hasOwn(native, key));
  // parseEvent is the one definition of a valid native event (lengths, depth, event names).
  return parseEvent(Object.fromEntries([...defined, ...extra]), undefined, now);
}
