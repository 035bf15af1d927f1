/**
 * Native wire types: what Hookbox receives (an event), what a handler returns (a result) and
 * what Hookbox answers (a decision). Versioned: every decision and audit record carries `v`.
 * Field names follow the agents' common names (tool_name, tool_input, …) so adapters stay thin.
 */
export const WIRE_VERSION = 1;

export interface NativeEvent {
  /** Canonical (PreToolUse …) or custom dotted name (task.completed). */
  readonly event_type: string;
  readonly session_id: string;
  /** ISO-8601. */
  readonly timestamp: string;
  /** The project directory: `${workspace}` in grants. Absent means workspace grants match nothing. */
  readonly cwd?: string;
  readonly tool_name?: string;
  readonly tool_input?: Record<string, unknown>;
  readonly tool_response?: unknown;
  readonly tool_use_id?: string;
  readonly prompt?: string;
  readonly stop_hook_active?: boolean;
  /** The agent the event came from (claude, gemini, cursor, codex, copilot, qwen, native). */
  readonly agent?: string;
  readonly [field: string]: unknown;
}

export type HookAction = "continue" | "deny" | "modify" | "inject_context" | "ask_user";
export type InjectionRole = "system" | "user" | "assistant";
export type MessageLevel = "info" | "warning" | "error";

/** What one handler returns; every field optional; nothing returned means `continue`. */
export interface HookResult {
  readonly action?: HookAction;
  readonly reason?: string;
  /** For modify: the new tool_input (tool events) or event data the next hook sees. */
  readonly data?: Record<string, unknown>;
  readonly context_injection?: string;
  readonly context_injection_role?: InjectionRole;
  readonly user_message?: string;
  readonly user_message_level?: MessageLevel;
  readonly suppress_output?: boolean;
  readonly approval_prompt?: string;
  readonly approval_options?: readonly string[];
  readonly approval_timeout_ms?: number;
  readonly approval_default?: "allow" | "deny";
  /** false halts the agent after this event (Claude's `continue: false`). */
  readonly continue?: boolean;
  readonly stop_reason?: string;
  readonly logs?: readonly string[];
  readonly messages_to_user?: readonly string[];
  readonly suggested_abilities?: readonly string[];
  readonly suggested_documents?: readonly string[];
  readonly new_intent?: string;
  readonly follow_up_actions?: readonly unknown[];
  readonly usage_recorded?: unknown;
}

export type RunStatus = "completed" | "failed" | "skipped" | "denied";

/** One matched hook's part in an event, skipped ones included. */
export interface RunSummary {
  readonly hook_id: string;
  readonly status: RunStatus;
  readonly duration_ms: number;
  /** Why it was skipped, why it failed (the precise cause) or why it denied. */
  readonly reason?: string;
  /** Stable code of a failure (sandbox_cpu, handler_threw, …). */
  readonly error_code?: string;
  readonly action?: HookAction;
}

export interface ContextInjection {
  readonly hook_id: string;
  readonly role: InjectionRole;
  readonly content: string;
}

export interface UserMessage {
  readonly hook_id: string;
  readonly level: MessageLevel;
  readonly message: string;
}

export interface ApprovalRequest {
  readonly hook_id: string;
  readonly prompt: string;
  readonly options: readonly string[];
  readonly timeout_ms: number;
  readonly default: "allow" | "deny";
}

/** The aggregated answer for one event. */
export interface Decision {
  readonly v: typeof WIRE_VERSION;
  readonly event_id: string;
  readonly event_type: string;
  readonly decision: "allow" | "deny" | "ask";
  readonly reason?: string;
  /** The hook that denied or asked. */
  readonly decided_by?: string;
  /** Present when a hook modified the input: the final tool_input (tool events) or data. */
  readonly data?: Record<string, unknown>;
  readonly context_injections: readonly ContextInjection[];
  readonly user_messages: readonly UserMessage[];
  /** false: a hook asked the agent to halt after this event. */
  readonly continue: boolean;
  readonly stop_reason?: string;
  readonly suppress_output?: boolean;
  readonly approval?: ApprovalRequest;
  readonly suggested_abilities?: readonly string[];
  readonly suggested_documents?: readonly string[];
  readonly runs: readonly RunSummary[];
}
