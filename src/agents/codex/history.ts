import { agentConfigDir } from "../shared/install/paths.ts";
import { filesIn, HistoryReading, record, text, within } from "../shared/history/lines.ts";
import type { HistoryCall, HistoryFormat } from "../shared/history/types.ts";

/**
 * Codex's session rollouts: `$CODEX_HOME (else ~/.codex)/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`,
 * one `{timestamp, type, payload}` per line. `session_meta` names the session and its cwd;
 * `turn_context` each turn's cwd and model; `response_item`s are the model's tool calls
 * (`function_call` exec_command/shell → Bash, `custom_tool_call` apply_patch), their outputs
 * (`*_output`: "Command blocked by PreToolUse hook: …" when a hook blocked one) and the user's
 * messages; `event_msg` `task_complete` ends a turn (Stop). Codex 0.169.0, as the real-client
 * tests generate it; the hook payloads rebuilt are the ones it sends (test/e2e/agents/captured/codex-cli).
 */

/** Line types that carry no hook call. */
const BOOKKEEPING = new Set(["event_msg", "world_state", "token_usage_record", "compacted"]);
/** Codex's own tools that run no hook. */
const NO_HOOK_TOOLS = new Set(["update_plan", "view_image", "write_stdin", "request_user_input"]);
/** Text Codex itself puts in user messages (its environment, the project's instructions). */
const CODEX_CONTEXT = /^\s*<(environment_context|user_instructions|user_shell_command|turn_aborted|subagent_notification)\b/;
const BLOCKED_BY_HOOK = /^Command blocked by (PreToolUse|PermissionRequest) hook: /;

export const codexHistory: HistoryFormat = {
  agent: "codex",
  where: "Codex's session rollouts: $CODEX_HOME (else ~/.codex)/sessions/YYYY/MM/DD/rollout-*.jsonl",

  async sessionsOf(project, places, fs) {
    const root = `${agentConfigDir(places.env.CODEX_HOME, project, `${places.home}/.codex`)}/sessions`;
    const files: string[] = [];
    for (const year of await dirsIn(fs, root))
      for (const month of await dirsIn(fs, year))
        for (const day of await dirsIn(fs, month)) files.push(...(await filesIn(fs, day, /^rollout-.*\.jsonl$/)));
    // A rollout's first line names its cwd: only this project's sessions are read whole.
    const mine: string[] = [];
    for (const file of files) {
      const first = (await fs.readText(file).catch(() => "")).split("\n", 1)[0] ?? "";
      const cwd = metaCwd(first);
      if (cwd !== undefined && within(cwd, project)) mine.push(file);
    }
    return mine;
  },

  recognizes(path, first) {
    return /\/rollout-[^/]*\.jsonl$/.test(path) || /"type"\s*:\s*"session_meta"/.test(first);
  },

  async read(file, content) {
    const reading = new HistoryReading<{ name: string; input: Record<string, unknown> }>("codex", file);
    let session: string | undefined;
    let cwd: string | undefined;
    let model: string | undefined;
    let turn: string | undefined;
    for (const { line, value } of reading.entries(content)) {
      const type = text(value.type);
      const payload = record(value.payload);
      if (type === undefined || payload === undefined) {
        reading.unknown(line, "no type or payload");
        continue;
      }
      const at = text(value.timestamp);
      const call = (eventName: string, fields: Record<string, unknown>): HistoryCall | undefined => {
        if (session === undefined || cwd === undefined) {
          reading.problem(line, "a call before the session's session_meta line (truncated at its start?): skipped");
          return undefined;
        }
        return reading.call(
          eventName,
          {
            session_id: session,
            ...(turn !== undefined && eventName !== "SessionStart" ? { turn_id: turn } : {}),
            transcript_path: file,
            cwd,
            hook_event_name: eventName,
            ...(model !== undefined ? { model } : {}),
            ...fields,
          },
          { line, at, session },
        );
      };
      if (type === "session_meta") {
        session = text(payload.id) ?? text(payload.session_id);
        cwd = text(payload.cwd);
        reading.push(call("SessionStart", { source: "startup" }));
        continue;
      }
      if (type === "turn_context") {
        cwd = text(payload.cwd) ?? cwd;
        model = text(payload.model) ?? model;
        turn = text(payload.turn_id) ?? turn;
        continue;
      }
      if (type === "event_msg") {
        if (payload.type === "task_complete")
          reading.push(call("Stop", { stop_hook_active: false, last_assistant_message: text(payload.last_agent_message) ?? "" }));
        continue;
      }
      if (BOOKKEEPING.has(type)) continue;
      if (type !== "response_item") {
        reading.unknown(line, `type ${JSON.stringify(type).slice(0, 60)}`);
        continue;
      }
      const item = text(payload.type);
      if (item === "message") {
        const prompt = userText(payload);
        if (prompt !== undefined) reading.push(call("UserPromptSubmit", { prompt }));
        continue;
      }
      if (item === "function_call" || item === "custom_tool_call" || item === "local_shell_call") {
        const id = text(payload.call_id) ?? text(payload.id);
        const tool = toolOf(payload);
        if (id === undefined || tool === undefined) {
          if (tool === undefined && !NO_HOOK_TOOLS.has(text(payload.name) ?? "")) reading.unknown(line, `a ${item} whose input cannot be read`);
          continue;
        }
        const made = call("PreToolUse", { tool_name: tool.name, tool_input: tool.input, tool_use_id: id });
        if (made) reading.toolCall(id, tool, made);
        continue;
      }
      if (item === "function_call_output" || item === "custom_tool_call_output" || item === "local_shell_call_output") {
        const id = text(payload.call_id);
        const tool = reading.tool(id);
        if (!tool || id === undefined) continue;
        const output = outputText(payload.output);
        if (BLOCKED_BY_HOOK.test(output)) {
          reading.blocked(id, output);
          continue;
        }
        reading.push(call("PostToolUse", { tool_name: tool.name, tool_input: tool.input, tool_response: output, tool_use_id: id }));
      }
      // reasoning, web searches, the assistant's text: no hook call.
    }
    return reading.result();
  },
};

/** The tool call as Codex's hooks name it: its shell as Bash with the command line, apply_patch with the patch. */
function toolOf(payload: Readonly<Record<string, unknown>>): { name: string; input: Record<string, unknown> } | undefined {
  const name = text(payload.name);
  if (payload.type === "custom_tool_call") {
    const input = text(payload.input);
    return name !== undefined && input !== undefined ? { name, input: { command: input } } : undefined;
  }
  if (payload.type === "local_shell_call") {
    const command = record(payload.action)?.command;
    return Array.isArray(command) ? { name: "Bash", input: { command: shellLine(command) } } : undefined;
  }
  if (name === undefined || NO_HOOK_TOOLS.has(name)) return undefined;
  let args: unknown;
  try {
    args = typeof payload.arguments === "string" ? JSON.parse(payload.arguments) : payload.arguments;
  } catch {
    return undefined;
  }
  const input = record(args);
  if (input === undefined) return undefined;
  if (name === "exec_command" && typeof input.cmd === "string") return { name: "Bash", input: { command: input.cmd } };
  if ((name === "shell" || name === "container.exec") && Array.isArray(input.command))
    return { name: "Bash", input: { command: shellLine(input.command) } };
  if (name === "shell_command" && typeof input.command === "string") return { name: "Bash", input: { command: input.command } };
  return { name, input: { ...input } };
}

/** An argv as one command line: `bash -lc "<script>"` is the script itself, as Codex's hooks show it. */
function shellLine(argv: readonly unknown[]): string {
  const words = argv.map(String);
  if (words.length === 3 && /(^|\/)(ba|z)?sh$/.test(words[0] as string) && /^-l?c$/.test(words[1] as string)) return words[2] as string;
  return words.map((word) => (/^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(" ");
}

/** A user message the person typed (not Codex's own context). */
function userText(payload: Readonly<Record<string, unknown>>): string | undefined {
  if (payload.role !== "user" || !Array.isArray(payload.content)) return undefined;
  const kinds = record(payload.internal_chat_message_metadata_passthrough)?.content_item_kinds;
  if (Array.isArray(kinds) && !kinds.includes("user.text")) return undefined;
  const parts = payload.content.flatMap((part) => (record(part)?.type === "input_text" ? [text(record(part)?.text) ?? ""] : []));
  const prompt = parts.join("\n");
  return prompt === "" || CODEX_CONTEXT.test(prompt) ? undefined : prompt;
}

function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  const content = record(output)?.content;
  return typeof content === "string" ? content : JSON.stringify(output ?? "");
}

function metaCwd(first: string): string | undefined {
  try {
    const value = JSON.parse(first) as { type?: unknown; payload?: { cwd?: unknown } };
    return value.type === "session_meta" && typeof value.payload?.cwd === "string" ? value.payload.cwd : undefined;
  } catch {
    return undefined;
  }
}

async function dirsIn(fs: { listDir(path: string): Promise<readonly { name: string; kind: string }[]> }, dir: string): Promise<string[]> {
  return (await fs.listDir(dir).catch(() => [])).filter((entry) => entry.kind === "dir").map((entry) => `${dir}/${entry.name}`);
}
