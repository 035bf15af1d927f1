import { agentHookTimeoutSeconds } from "../../core/events/hook-timeouts.ts";

/**
 * The opencode plugin `install-agent opencode` writes. opencode has no command hooks, only
 * in-process plugins (JavaScript run by its own Bun), so the plugin is where opencode's messages,
 * tool calls and tool results become native Hookbox events:
 *
 * - it runs `hookbox emit <event> --agent native` for each, which lets a daemon decide only
 *   once it has proven the daemon is this very Hookbox (SECURITY.md, "Who answers on the
 *   socket"), else evaluates in its own process. The plugin itself never talks to a socket: a
 *   program the agent started there would answer it, and the proof needs the kernel's peer
 *   credentials, which a plugin inside opencode's runtime has no way to read;
 * - and applies the decision: `tool.execute.before` throws to block (opencode shows the message
 *   to the model as the tool's result), a rewrite replaces the arguments in the object opencode
 *   runs; context goes into the system prompt (SessionStart), the user's message
 *   (UserPromptSubmit) or after the tool's output (PostToolUse). A tool call Hookbox could not
 *   be asked about is blocked, never run unchecked.
 */

/** The first line of every plugin file Hookbox writes: what marks the file as Hookbox's own. */
export const OPENCODE_PLUGIN_MARKER = "// Hookbox for opencode, written by `hookbox install-agent opencode`.";

/** opencode's tool names → Claude Code's, the names Hookbox's hooks match. */
const TOOL_NAMES: Readonly<Record<string, string>> = {
  bash: "Bash",
  write: "Write",
  edit: "Edit",
  multiedit: "MultiEdit",
  patch: "Edit",
  read: "Read",
  glob: "Glob",
  grep: "Grep",
  list: "LS",
  webfetch: "WebFetch",
  todowrite: "TodoWrite",
  task: "Agent",
};

/** opencode's plugin hooks and the native event each asks about. */
export const OPENCODE_EVENTS: Readonly<Record<string, string>> = {
  "experimental.chat.system.transform": "SessionStart",
  "chat.message": "UserPromptSubmit",
  "tool.execute.before": "PreToolUse",
  "tool.execute.after": "PostToolUse",
};

export interface OpencodePluginOptions {
  /** The hookbox executable's absolute path. */
  readonly hookbox: string;
  /** BUILD_ID of that executable: part of the identity the daemon checks. */
  readonly buildId: string;
  /** The native events to ask about (of OPENCODE_EVENTS' values). */
  readonly events: readonly string[];
  /** `--fail-closed` for every emit (and the header for the daemon). */
  readonly failClosed: boolean;
}

/** The plugin's source text. Deterministic: the same options give the same bytes, so a second install changes nothing. */
export function opencodePluginSource(options: OpencodePluginOptions): string {
  const timeouts = Object.fromEntries(Object.values(OPENCODE_EVENTS).map((event) => [event, agentHookTimeoutSeconds(event) * 1000]));
  const constants = [
    `const HOOKBOX = ${JSON.stringify(options.hookbox)};`,
    `const BUILD = ${JSON.stringify(options.buildId)};`,
    `const FAIL_CLOSED = ${options.failClosed};`,
    `const EVENTS = new Set(${JSON.stringify([...options.events])});`,
    `const TIMEOUT_MS = ${JSON.stringify(timeouts)};`,
    `const TOOL_NAMES = ${JSON.stringify(TOOL_NAMES)};`,
  ];
  return `${OPENCODE_PLUGIN_MARKER}
// Do not edit: install-agent rewrites it and uninstall-agent removes it. Each message, tool call
// and tool result is asked of \`hookbox emit\`, which uses its daemon only once it has proven it
// genuine. A tool call Hookbox cannot be asked about is blocked.
import { spawn } from "node:child_process";

${constants.join("\n")}
${PLUGIN_BODY}`;
}

/** Plain JavaScript without template literals, so it sits in this String.raw literal byte for byte as opencode reads it. */
const PLUGIN_BODY = String.raw`
/** hookbox emit's Decision, or why there is none. */
function viaEmit(event, directory, timeoutMs) {
  return new Promise((resolve) => {
    const args = ["emit", event.event_type, "--agent", "native"];
    if (FAIL_CLOSED) args.push("--fail-closed");
    let child;
    try {
      child = spawn(HOOKBOX, args, { cwd: directory, stdio: ["pipe", "pipe", "pipe"] });
    } catch (error) {
      resolve({ why: String(error && error.message) });
      return;
    }
    const out = [];
    const err = [];
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.stderr.on("data", (chunk) => err.push(chunk));
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ why: String(error && error.message) });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      try {
        resolve({ decision: JSON.parse(Buffer.concat(out).toString("utf8")) });
      } catch {
        resolve({ why: (signal ? "killed by " + signal : "exit " + code) + ": " + Buffer.concat(err).toString("utf8").trim().slice(0, 500) });
      }
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(JSON.stringify(event));
  });
}

/** One native event's Decision. When Hookbox cannot be asked, a guard event is denied with the reason, any other goes on. */
async function ask(eventType, fields, directory, guard) {
  const event = Object.assign({ event_type: eventType, agent: "opencode", cwd: directory, timestamp: new Date().toISOString() }, fields);
  const timeoutMs = TIMEOUT_MS[eventType] || 30000;
  const ran = await viaEmit(event, directory, timeoutMs);
  if (ran.decision && typeof ran.decision.decision === "string") return ran.decision;
  const reason = "Hookbox could not evaluate this " + eventType + " (" + (ran.why || "no answer") + ")";
  console.error("hookbox: " + reason);
  return guard ? { decision: "deny", reason: reason + ", so it is blocked.", context_injections: [] } : { decision: "allow", context_injections: [], user_messages: [{ message: reason }] };
}

function contextOf(decision) {
  return (decision.context_injections || []).map((injection) => injection.content).filter(Boolean).join("\n\n");
}

/**
 * opencode runs the very object it handed the hook (1.18.33: trigger(..., { args }), then
 * execute(args)): a new object in output.args would be dropped and the original input run. So
 * the rewrite goes into that object, key by key.
 */
function rewriteInPlace(args, data) {
  for (const key of Object.keys(args)) if (!Object.prototype.hasOwnProperty.call(data, key)) delete args[key];
  Object.assign(args, data);
}

function toolName(tool) {
  return TOOL_NAMES[tool] || tool;
}

export const HookboxPlugin = async ({ directory }) => {
  const sessionContext = new Map();
  const hooks = {};
  if (EVENTS.has("SessionStart")) {
    // Asked once per session; its context joins the system prompt of every request.
    hooks["experimental.chat.system.transform"] = async (input, output) => {
      const id = input.sessionID || "unknown";
      if (!sessionContext.has(id)) sessionContext.set(id, contextOf(await ask("SessionStart", { session_id: id, source: "startup" }, directory, false)));
      const context = sessionContext.get(id);
      if (context) output.system.push(context);
    };
  }
  if (EVENTS.has("UserPromptSubmit")) {
    hooks["chat.message"] = async (input, output) => {
      const text = output.parts.filter((part) => part.type === "text").map((part) => part.text).join("\n");
      const decision = await ask("UserPromptSubmit", { session_id: input.sessionID, prompt: text }, directory, false);
      if (decision.decision !== "allow") throw new Error(decision.reason || "Blocked by Hookbox.");
      const context = contextOf(decision);
      const first = output.parts.find((part) => part.type === "text");
      if (context && first) first.text += "\n\n" + context;
    };
  }
  if (EVENTS.has("PreToolUse")) {
    hooks["tool.execute.before"] = async (input, output) => {
      const decision = await ask("PreToolUse", { session_id: input.sessionID, tool_name: toolName(input.tool), agent_tool_name: input.tool, tool_input: output.args, tool_use_id: input.callID }, directory, true);
      if (decision.decision !== "allow") throw new Error(decision.reason || "Blocked by Hookbox.");
      if (decision.data) rewriteInPlace(output.args, decision.data);
    };
  }
  if (EVENTS.has("PostToolUse")) {
    hooks["tool.execute.after"] = async (input, output) => {
      const decision = await ask("PostToolUse", { session_id: input.sessionID, tool_name: toolName(input.tool), agent_tool_name: input.tool, tool_input: input.args, tool_use_id: input.callID, tool_response: output.output }, directory, false);
      const context = [decision.decision !== "allow" ? decision.reason : "", contextOf(decision)].filter(Boolean).join("\n\n");
      if (context) output.output += "\n\n" + context;
    };
  }
  return hooks;
};
`;
