// A hand-written opencode plugin that puts Hookbox in front of opencode's tools. opencode has no
// command hooks, only in-process plugins (JS run by its own Bun): this one turns each user message,
// tool call and tool result into a native Hookbox event, asks `hookbox emit <type> --agent native`
// (which uses the daemon when one runs), and applies the decision: a deny throws (opencode's way
// to block a tool), a rewrite replaces the arguments, context is appended where the model reads it.
// Until `hookbox install-agent opencode` writes it, tests install this text with hookSettingsFor.

/** opencode's tool names → the ones Hookbox's hooks match (Claude Code's). */
const TOOL_NAMES = { bash: "Bash", write: "Write", edit: "Edit", multiedit: "MultiEdit", patch: "Edit", read: "Read", glob: "Glob", grep: "Grep", list: "LS", webfetch: "WebFetch", todowrite: "TodoWrite", task: "Agent" };

export function opencodePlugin(hookbox: string): string {
  return `// Hookbox for opencode (generated): every message, tool call and tool result is asked of Hookbox.
import { spawnSync } from "node:child_process";

const HOOKBOX = ${JSON.stringify(hookbox)};
const TOOL_NAMES = ${JSON.stringify(TOOL_NAMES)};

/**
 * One native event through \`hookbox emit\`, its Decision back. A guard event fails closed: if
 * Hookbox cannot answer, the tool is blocked with the reason, never run unchecked.
 */
function ask(eventType, fields, directory, failClosed) {
  const event = { event_type: eventType, agent: "opencode", cwd: directory, timestamp: new Date().toISOString(), ...fields };
  const args = ["emit", eventType, "--agent", "native", ...(failClosed ? ["--fail-closed"] : [])];
  const run = spawnSync(HOOKBOX, args, { input: JSON.stringify(event), encoding: "utf8", cwd: directory, timeout: 120000 });
  try {
    return JSON.parse(run.stdout);
  } catch {
    const why = run.error ? run.error.message : "exit " + run.status + ": " + String(run.stderr).trim().slice(0, 500);
    return failClosed ? { decision: "deny", reason: "Hookbox could not evaluate this call (" + why + "), so it is blocked." } : { decision: "allow", context_injections: [] };
  }
}

function contextOf(decision) {
  return (decision.context_injections || []).map((injection) => injection.content).filter(Boolean).join("\\n\\n");
}

function toolName(tool) {
  return TOOL_NAMES[tool] || tool;
}

export const HookboxPlugin = async ({ directory }) => {
  const sessionContext = new Map();
  return {
    // SessionStart: asked once per session; its context joins the system prompt of every request.
    "experimental.chat.system.transform": async (input, output) => {
      const id = input.sessionID || "unknown";
      if (!sessionContext.has(id)) sessionContext.set(id, contextOf(ask("SessionStart", { session_id: id, source: "startup" }, directory, false)));
      const context = sessionContext.get(id);
      if (context) output.system.push(context);
    },
    "chat.message": async (input, output) => {
      const text = output.parts.filter((part) => part.type === "text").map((part) => part.text).join("\\n");
      const decision = ask("UserPromptSubmit", { session_id: input.sessionID, prompt: text }, directory, false);
      if (decision.decision !== "allow") throw new Error(decision.reason || "Blocked by Hookbox.");
      const context = contextOf(decision);
      const first = output.parts.find((part) => part.type === "text");
      if (context && first) first.text += "\\n\\n" + context;
    },
    "tool.execute.before": async (input, output) => {
      const decision = ask("PreToolUse", { session_id: input.sessionID, tool_name: toolName(input.tool), agent_tool_name: input.tool, tool_input: output.args, tool_use_id: input.callID }, directory, true);
      if (decision.decision !== "allow") throw new Error(decision.reason || "Blocked by Hookbox.");
      if (decision.data) output.args = decision.data;
    },
    "tool.execute.after": async (input, output) => {
      const decision = ask("PostToolUse", { session_id: input.sessionID, tool_name: toolName(input.tool), agent_tool_name: input.tool, tool_input: input.args, tool_use_id: input.callID, tool_response: output.output }, directory, false);
      const context = [decision.decision !== "allow" ? decision.reason : "", contextOf(decision)].filter(Boolean).join("\\n\\n");
      if (context) output.output += "\\n\\n" + context;
    },
  };
};
`;
}
