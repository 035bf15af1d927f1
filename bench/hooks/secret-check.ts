// The check every contender performs: is this PreToolUse a write to a secret file?
interface ToolEvent {
  tool_name?: string;
  tool_input?: { file_path?: string };
}
export default function handler(event: ToolEvent): { action: "deny" | "continue"; reason?: string } {
  const path = String(event.tool_input?.file_path ?? "");
  return /(^|\/)\.env(\.|$)|\.pem$|\.key$/.test(path) ? { action: "deny", reason: `${path} holds secrets` } : { action: "continue" };
}
