/**
 * How long an agent waits for `hookbox emit` before it gives up (and fails open): the timeout
 * `install-agent` writes into each entry, and so the time an evaluation must fit in. Tool and
 * permission events may hold for an ask, so they get longest; SessionEnd runs while the agent
 * exits (Claude shares a 1.5 s budget unless told, research §1.6).
 */
export function agentHookTimeoutSeconds(nativeEvent: string): number {
  if (nativeEvent === "PreToolUse" || nativeEvent === "PermissionRequest") return 120;
  if (nativeEvent === "SessionEnd") return 10;
  return 30;
}
