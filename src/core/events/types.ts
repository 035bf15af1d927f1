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
  /** For a hook with steps: their results, in order (the seed engine's field names: stdout, exit_code, failures …). */
  readonly steps?: readonly Readonly<Record<string, unknown>>[];
  /** The seed's SessionStop: the files the session changed (what match.only_if_changed_paths selects on). */
  readonly changed_files?: readonly string[];
  /** How long the call took (Claude Code's PostToolUse, the seed's PostAbilityCall): what match.min_duration_ms selects on. */
  readonly duration_ms?: number;
  /** The seed's ability (PreAbilityCall/PostAbilityCall): what match.ability_scope selects on, else tool_name. */
  readonly ability_id?: string;
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
  /**
   * PostToolUse: what the model sees instead of the tool's output (Claude Code's
   * `updatedToolOutput`), in the shape of the event's `tool_response`. An output rewrite: it
   * needs `permissions.modify: [tool_response]`, granted by the operator; otherwise it is refused,
   * with the reason in the run record.
   */
  readonly tool_response?: unknown;
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
  /** Lines for the audit log: text, or `{level, message}` (the repository hooks template's form). */
  readonly logs?: readonly (string | LogLine)[];
  readonly messages_to_user?: readonly string[];
  /** Hints for the caller's routing: ids, or `{id, reason, confidence}` (the template's form). */
  readonly suggested_abilities?: readonly (string | SuggestedAbility)[];
  readonly suggested_documents?: readonly (string | SuggestedDocument)[];
  /** A structured intent for the caller's knowledge routing (text is taken as `{intent}`). */
  readonly new_intent?: string | Intent;
  readonly follow_up_actions?: readonly FollowUpAction[];
  readonly usage_recorded?: unknown;
  /** The template's tracker: signals for better matchers (kept in the run record's notes). */
  readonly update_matcher_suggestions?: readonly { readonly ability_id: string; readonly signal: string; readonly weight?: number }[];
  /** The template's way to block (`"blocked_by_policy"`): a deny with this as its reason. */
  readonly error?: string;
}

export interface LogLine {
  readonly level: "debug" | "info" | "warn" | "error";
  readonly message: string;
}

export interface SuggestedAbility {
  readonly id: string;
  readonly reason?: string;
  readonly confidence?: number;
}

export interface SuggestedDocument {
  readonly path: string;
  readonly reason?: string;
  readonly stage?: string;
}

export interface Intent {
  readonly intent: string;
  readonly scope?: string;
  readonly topic?: string;
  readonly stage?: string;
  readonly signals?: Readonly<Record<string, unknown>>;
}

export interface FollowUpAction {
  readonly kind: string;
  readonly payload?: Readonly<Record<string, unknown>>;
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
export interface DeliveredRun {
  readonly hook_id: string;
  readonly run_id: string;
  readonly trigger: string;
}

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
  /** Present when a granted hook rewrote a tool's output (PostToolUse): what the model must see instead. */
  readonly tool_response?: unknown;
  readonly context_injections: readonly ContextInjection[];
  readonly user_messages: readonly UserMessage[];
  /** false: a hook asked the agent to halt after this event. */
  readonly continue: boolean;
  readonly stop_reason?: string;
  readonly suppress_output?: boolean;
  readonly approval?: ApprovalRequest;
  /** Routing hints and follow-ups the hooks returned, for native clients and orchestrators (with the hook each came from). */
  readonly suggested_abilities?: readonly (SuggestedAbility & { readonly hook_id: string })[];
  readonly suggested_documents?: readonly (SuggestedDocument & { readonly hook_id: string })[];
  readonly new_intent?: Intent & { readonly hook_id: string };
  readonly follow_up_actions?: readonly (FollowUpAction & { readonly hook_id: string })[];
  /** Triggered runs (a schedule, a watch) whose queued context this answer delivers, in its context_injections. */
  readonly delivered_runs?: readonly DeliveredRun[];
  readonly runs: readonly RunSummary[];
}
