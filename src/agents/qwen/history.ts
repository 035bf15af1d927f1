import { agentConfigDir } from "../shared/install/paths.ts";
import { filesIn, geminiStyleFields, HistoryReading, mungedProjectDirs, record, text } from "../shared/history/lines.ts";
import type { HistoryCall, HistoryFormat } from "../shared/history/types.ts";

/**
 * Qwen Code's chat records: `$QWEN_HOME (else ~/.qwen)/projects/<project path with "-" for every
 * character but a-z A-Z 0-9>/chats/<session id>.jsonl`, one entry per line with its `type` (user,
 * assistant, tool_result, system), `sessionId`, `cwd` and `timestamp`, and the Gemini-style
 * `message.parts`: a `functionCall` is a tool call (PreToolUse, Gemini's tool names), the
 * `tool_result` entry's `toolCallResult` says how it went (`executionStatus: not_started` when a
 * hook or a refusal stopped it), text from the person is a prompt (UserPromptSubmit), the
 * assistant's text without a call ends the turn (Stop). Qwen Code 0.24.4; payloads as it sends
 * them (test/e2e/agents/captured/qwen-code).
 */

/** Context Qwen Code adds to a prompt (the hooks' UserPromptSubmit context): not what the person typed. */
const ADDED_TEXT = /<qwen:[a-z-]+-context>[\s\S]*?<\/qwen:[a-z-]+-context>/g;

export const qwenHistory: HistoryFormat = {
  agent: "qwen",
  where: "Qwen Code's chat records: $QWEN_HOME (else ~/.qwen)/projects/<project path with - for / and .>/chats/<session>.jsonl",

  async sessionsOf(project, places, fs) {
    const root = `${agentConfigDir(places.env.QWEN_HOME, project, `${places.home}/.qwen`)}/projects`;
    const dirs = (await mungedProjectDirs(fs, root, project)).map((dir) => `${dir}/chats`);
    return (await Promise.all(dirs.map((dir) => filesIn(fs, dir, /\.jsonl$/)))).flat();
  },

  recognizes(path, first) {
    return /\/\.qwen\/projects\/[^/]+\/chats\/[^/]+\.jsonl$/.test(path) || (/"sessionId"\s*:/.test(first) && /"parts"\s*:/.test(first));
  },

  async read(file, content) {
    const reading = new HistoryReading<{ name: string; input: unknown }>("qwen", file);
    let started = false;
    for (const { line, value: entry } of reading.entries(content)) {
      const type = text(entry.type);
      if (type === "system") continue;
      const session = text(entry.sessionId);
      const cwd = text(entry.cwd);
      const parts = record(entry.message)?.parts;
      if (
        type === undefined ||
        !["user", "assistant", "tool_result"].includes(type) ||
        session === undefined ||
        cwd === undefined ||
        !Array.isArray(parts)
      ) {
        reading.unknown(line, type === undefined ? "no type" : `type ${JSON.stringify(type).slice(0, 60)}`);
        continue;
      }
      const at = text(entry.timestamp);
      const call = (eventName: string, fields: Record<string, unknown>): HistoryCall =>
        reading.call(eventName, { ...geminiStyleFields(session, file, cwd, eventName, at), ...fields }, { line, at, session });
      if (!started) {
        started = true;
        reading.push(call("SessionStart", { source: "startup" }));
      }
      const blocks = parts.map(record);
      if (type === "user") {
        const prompt = blocks
          .map((part) => text(part?.text) ?? "")
          .join("\n")
          .replace(ADDED_TEXT, "")
          .trim();
        if (prompt !== "") reading.push(call("UserPromptSubmit", { prompt }));
        continue;
      }
      if (type === "assistant") {
        let called = false;
        for (const part of blocks) {
          const fn = record(part?.functionCall);
          const id = text(fn?.id);
          const name = text(fn?.name);
          if (!fn || id === undefined || name === undefined) continue;
          called = true;
          reading.toolCall(id, { name, input: fn.args ?? {} }, call("PreToolUse", { tool_name: name, tool_input: fn.args ?? {}, tool_call_id: id }));
        }
        const said = blocks
          .map((part) => (part?.thought === true ? "" : (text(part?.text) ?? "")))
          .join("")
          .trim();
        if (!called && said !== "") reading.push(call("Stop", { stop_hook_active: false, last_assistant_message: said }));
        continue;
      }
      const result = record(entry.toolCallResult);
      const id = text(result?.callId) ?? text(record(blocks[0]?.functionResponse)?.id);
      const tool = reading.tool(id);
      if (!tool || id === undefined) continue;
      const response = record(record(blocks[0]?.functionResponse)?.response);
      if (result?.executionStatus === "not_started") {
        reading.blocked(id, text(result.resultDisplay) ?? "not started");
        continue;
      }
      const common = { tool_name: tool.name, tool_input: tool.input, tool_call_id: id };
      reading.push(
        result?.status === "error"
          ? call("PostToolUseFailure", { ...common, error: text(response?.error) ?? text(result.resultDisplay) ?? "" })
          : call("PostToolUse", { ...common, tool_response: { llmContent: response?.output ?? "", returnDisplay: result?.resultDisplay ?? "" } }),
      );
    }
    return reading.result();
  },
};
