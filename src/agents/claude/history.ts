import { agentConfigDir } from "../shared/install/paths.ts";
import { filesIn, HistoryReading, mungedProjectDirs, record, text } from "../shared/history/lines.ts";
import type { HistoryCall, HistoryFormat } from "../shared/history/types.ts";

/**
 * Claude Code's session transcripts: `<config dir>/projects/<project path, every character but
 * a-z A-Z 0-9 made "-">/<session id>.jsonl` (config dir: CLAUDE_CONFIG_DIR, else ~/.claude), one
 * JSON entry per line, each with its `type`, `sessionId`, `cwd` and `timestamp`. An assistant
 * entry's `tool_use` blocks are the tool calls (PreToolUse); the user entry carrying each one's
 * `tool_result` says how it went (PostToolUse, PostToolUseFailure, or blocked by a hook: then the
 * tool never ran); a user entry whose content is the person's text is a prompt
 * (UserPromptSubmit); an assistant turn that ends (`stop_reason: end_turn`) is a Stop. Claude
 * Code 2.1.330, as the real-client tests generate it.
 */

/** Entries Claude Code writes that carry no hook call: read, and left aside. */
const BOOKKEEPING = new Set([
  "queue-operation",
  "attachment",
  "system",
  "summary",
  "file-history-snapshot",
  "api-request",
  "api-request-blob",
  "api-request-shape",
  "last-prompt",
  "atis-latch",
  "tools-used",
  "cost-state",
  "custom-title",
  "ai-title",
  "agent-name",
  "tag",
  "mode",
  "pr-link",
  "worktree-state",
  "content-replacement",
  "progress",
]);

/** How Claude Code words a tool result when a hook blocked the call before it ran. */
const BLOCKED_BY_HOOK = /^(PreToolUse|PermissionRequest)(:\S*)? hook (error|blocked)|^Hook PreToolUse:\S* denied/;

export const claudeHistory: HistoryFormat = {
  agent: "claude",
  where: "Claude Code's session transcripts: $CLAUDE_CONFIG_DIR (else ~/.claude)/projects/<project path with - for / and .>/<session>.jsonl",

  async sessionsOf(project, places, fs) {
    const root = `${agentConfigDir(places.env.CLAUDE_CONFIG_DIR, project, `${places.home}/.claude`)}/projects`;
    const dirs = await mungedProjectDirs(fs, root, project);
    return (await Promise.all(dirs.map((dir) => filesIn(fs, dir, /\.jsonl$/)))).flat();
  },

  recognizes(path, first) {
    if (/\/\.claude\/projects\//.test(path) && path.endsWith(".jsonl")) return true;
    return /"sessionId"\s*:/.test(first) && /"type"\s*:\s*"(queue-operation|user|attachment|summary|file-history-snapshot|system)"/.test(first);
  },

  async read(file, content) {
    const reading = new HistoryReading<{ name: string; input: unknown }>("claude", file);
    const seenMessages = new Set<string>();
    let started = false;
    let permissionMode: string | undefined;
    for (const { line, value: entry } of reading.entries(content)) {
      const type = text(entry.type);
      if (type === undefined) {
        reading.unknown(line, "no type");
        continue;
      }
      if (BOOKKEEPING.has(type)) continue;
      if (type !== "user" && type !== "assistant") {
        reading.unknown(line, `type ${JSON.stringify(type).slice(0, 60)}`);
        continue;
      }
      const session = text(entry.sessionId);
      const cwd = text(entry.cwd);
      const message = record(entry.message);
      if (session === undefined || cwd === undefined || message === undefined) {
        reading.unknown(line, `a ${type} entry without sessionId, cwd or message`);
        continue;
      }
      // A subagent's turns (isSidechain) are the Task tool's, with hooks of their own kind: left aside.
      if (entry.isSidechain === true) continue;
      const at = text(entry.timestamp);
      permissionMode = text(entry.permissionMode) ?? permissionMode;
      const base = {
        session_id: session,
        transcript_path: file,
        cwd,
        ...(permissionMode !== undefined ? { permission_mode: permissionMode } : {}),
      };
      const call = (eventName: string, payload: Record<string, unknown>): HistoryCall =>
        reading.call(eventName, { ...base, hook_event_name: eventName, ...payload }, { line, at, session });
      if (!started) {
        started = true;
        reading.push(call("SessionStart", { source: "startup" }));
      }
      const content = message.content;
      if (type === "user") {
        if (typeof content === "string") {
          if (entry.isMeta !== true && !entry.isCompactSummary) reading.push(call("UserPromptSubmit", { prompt: content }));
          continue;
        }
        if (!Array.isArray(content)) {
          reading.unknown(line, "a user entry whose content is neither text nor a list");
          continue;
        }
        const prompt = content.flatMap((block) => (record(block)?.type === "text" ? [text(record(block)?.text) ?? ""] : [])).join("\n");
        const results = content.map(record).filter((block) => block?.type === "tool_result");
        if (results.length === 0 && prompt !== "" && entry.isMeta !== true) reading.push(call("UserPromptSubmit", { prompt }));
        for (const result of results) {
          const id = text(result?.tool_use_id);
          const tool = reading.tool(id);
          if (!result || id === undefined || !tool) continue;
          const output = resultText(result.content);
          if (result.is_error === true && BLOCKED_BY_HOOK.test(output)) {
            reading.blocked(id, output);
            continue;
          }
          const common = { tool_name: tool.name, tool_input: tool.input, tool_use_id: id };
          reading.push(
            result.is_error === true
              ? call("PostToolUseFailure", { ...common, error: output })
              : call("PostToolUse", { ...common, tool_response: entry.toolUseResult ?? output }),
          );
        }
        continue;
      }
      // An assistant message may be written over several entries (one per block): each block once.
      if (!Array.isArray(content)) {
        reading.unknown(line, "an assistant entry whose content is not a list");
        continue;
      }
      for (const block of content.map(record)) {
        if (block?.type !== "tool_use") continue;
        const id = text(block.id);
        const name = text(block.name);
        if (id === undefined || name === undefined || reading.hasTool(id)) continue;
        reading.toolCall(
          id,
          { name, input: block.input ?? {} },
          call("PreToolUse", { tool_name: name, tool_input: block.input ?? {}, tool_use_id: id }),
        );
      }
      const messageId = text(message.id);
      if (message.stop_reason === "end_turn" && (messageId === undefined || !seenMessages.has(messageId))) {
        if (messageId !== undefined) seenMessages.add(messageId);
        const last = content.flatMap((block) => (record(block)?.type === "text" ? [text(record(block)?.text) ?? ""] : [])).join("\n");
        reading.push(call("Stop", { stop_hook_active: false, last_assistant_message: last }));
      }
    }
    return reading.result();
  },
};

/** A tool result's content as text: a string, or its text blocks. */
function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.flatMap((block) => (record(block)?.type === "text" ? [text(record(block)?.text) ?? ""] : [])).join("\n");
}
