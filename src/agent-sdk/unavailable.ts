import type { SdkHookOutput } from "./types.ts";

/**
 * The answer when Hookbox could not be asked (no daemon, a timeout, an answer that is not the
 * API's). A tool call or a permission is refused with the reason — nothing that stands between
 * the agent and an action may pass unchecked — unless the caller chose `whenUnavailable: "allow"`;
 * every other event goes on, with the reason shown to the user.
 */
export function unavailableAnswer(event: string, reason: string, whenUnavailable: "deny" | "allow"): SdkHookOutput {
  const why = `Hookbox could not evaluate this ${event} (${reason})`;
  if (whenUnavailable === "deny" && event === "PreToolUse") {
    return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: `${why}, so it is blocked.` } };
  }
  if (whenUnavailable === "deny" && event === "PermissionRequest") {
    return { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: `${why}, so it is refused.` } } };
  }
  return { systemMessage: `${why}; it went on unchecked.` };
}
