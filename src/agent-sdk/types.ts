/**
 * The Claude Agent SDK's hook types, as far as Hookbox answers them: a structural subset of
 * `Options["hooks"]` of @anthropic-ai/claude-agent-sdk (sdk.d.ts: HookCallbackMatcher,
 * SyncHookJSONOutput), written here so hookbox/agent-sdk needs no SDK at build time.
 * test/e2e/agents/claude-agent-sdk-adapter.test.ts type-checks hookboxHooks() against the real one.
 */

/** The SDK events hookboxHooks registers by default: those `install-agent claude` installs, less SessionStart (the SDK never calls it in-process). */
export const SDK_HOOK_EVENTS = [
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "Notification",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "PostCompact",
  "SessionEnd",
] as const;

export type SdkHookEvent = (typeof SDK_HOOK_EVENTS)[number] | "SessionStart";

/** The SDK's hook input: Claude Code's hook payload (session_id, cwd, hook_event_name, tool_name …). */
export type SdkHookInput = { readonly hook_event_name: string; readonly [field: string]: unknown };

type PermissionDecision = "allow" | "deny" | "ask" | "defer";

export type SdkHookSpecificOutput =
  | {
      hookEventName: "PreToolUse";
      permissionDecision?: PermissionDecision;
      permissionDecisionReason?: string;
      updatedInput?: Record<string, unknown>;
      additionalContext?: string;
    }
  | {
      hookEventName: "PermissionRequest";
      decision: { behavior: "allow"; updatedInput?: Record<string, unknown> } | { behavior: "deny"; message?: string; interrupt?: boolean };
    }
  | { hookEventName: "PostToolUse"; additionalContext?: string }
  | { hookEventName: "PostToolUseFailure"; additionalContext?: string }
  | { hookEventName: "UserPromptSubmit"; additionalContext?: string }
  | { hookEventName: "SessionStart"; additionalContext?: string };

/** Claude Code's hook JSON answer (the SDK's SyncHookJSONOutput). */
export interface SdkHookOutput {
  continue?: boolean;
  suppressOutput?: boolean;
  stopReason?: string;
  decision?: "approve" | "block";
  systemMessage?: string;
  reason?: string;
  hookSpecificOutput?: SdkHookSpecificOutput;
}

export type SdkHookCallback = (input: SdkHookInput, toolUseID: string | undefined, options: { signal: AbortSignal }) => Promise<SdkHookOutput>;

export interface SdkHookMatcher {
  matcher?: string;
  hooks: SdkHookCallback[];
  /** Seconds. */
  timeout?: number;
}

/** The SDK's `hooks` option. */
export type SdkHooks = Partial<Record<SdkHookEvent, SdkHookMatcher[]>>;
