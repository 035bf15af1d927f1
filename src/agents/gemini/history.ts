import { filesIn, geminiStyleFields, HistoryReading, record, text, within } from "../shared/history/lines.ts";
import type { HistoryCall, HistoryFormat, HistoryFs } from "../shared/history/types.ts";

/**
 * Gemini CLI's recorded chats: `~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`, where
 * `<project>` is a short name `~/.gemini/projects.json` maps the project's path to, and
 * `.project_root` beside `chats/` holds that path (older versions: a directory named by the
 * path's SHA-256, and one JSON document per session, `session-*.json`). The first line is the
 * session (`sessionId`, `startTime`); then messages, `{id, timestamp, type, content}`, written
 * again under the same id as they grow (a model turn gets its `toolCalls`, each with its `args`,
 * `status` and `result`); `$set` lines update the session's own fields. Gemini CLI 0.61.0, as the
 * real-client tests generate it; payloads as it sends them (test/e2e/agents/captured/gemini-cli).
 */

/** What Gemini CLI wraps around text it adds to a prompt: the hooks' context and its own session context. */
const ADDED_TEXT = /<hook_context>[\s\S]*?<\/hook_context>\s*/g;
const BLOCKED_BY_HOOK = /^Tool execution blocked: /;

interface Message {
  readonly line: number;
  readonly value: Readonly<Record<string, unknown>>;
}

export const geminiHistory: HistoryFormat = {
  agent: "gemini",
  where: "Gemini CLI's recorded chats: ~/.gemini/tmp/<project>/chats/session-*.jsonl (and the older session-*.json)",

  async sessionsOf(project, places, fs) {
    const root = `${places.home}/.gemini/tmp`;
    const files: string[] = [];
    for (const entry of await fs.listDir(root).catch(() => [])) {
      if (entry.kind !== "dir") continue;
      const dir = `${root}/${entry.name}`;
      const rootOf = (await fs.readText(`${dir}/.project_root`).catch(() => "")).trim();
      if (rootOf === "" || !within(rootOf, project)) continue;
      files.push(...(await filesIn(fs, `${dir}/chats`, /^session-.*\.jsonl?$/)));
    }
    return files;
  },

  recognizes(path, first) {
    return /\/\.gemini\/tmp\/[^/]+\/chats\/session-[^/]*\.jsonl?$/.test(path) || (/"projectHash"\s*:/.test(first) && /"sessionId"\s*:/.test(first));
  },

  async read(file, content, fs) {
    const reading = new HistoryReading<object>("gemini", file);
    const messages = new Map<string, Message>();
    let header: Readonly<Record<string, unknown>> | undefined;
    let headerLine = 1;
    const whole = file.endsWith(".json") ? wholeDocument(content) : undefined;
    if (whole) {
      // The older format: one JSON document, its messages in order (line numbers are the document's first line).
      header = whole;
      reading.lines = content.split("\n").length;
      for (const message of Array.isArray(whole.messages) ? whole.messages : []) {
        const value = record(message);
        const id = text(value?.id);
        if (value && id !== undefined) messages.set(id, { line: 1, value });
      }
    } else {
      for (const { line, value } of reading.entries(content)) {
        if (header === undefined && typeof value.sessionId === "string") {
          header = value;
          headerLine = line;
          continue;
        }
        if ("$set" in value) continue;
        const id = text(value.id);
        if (id === undefined || text(value.type) === undefined) {
          reading.unknown(line, "neither the session, a message nor a $set");
          continue;
        }
        // A message written again replaces what was written before; it keeps its place.
        const first = messages.get(id);
        messages.delete(id);
        messages.set(id, { line, value: first ? { ...first.value, ...value } : value });
      }
    }
    const session = text(header?.sessionId);
    if (session === undefined) {
      reading.problem(headerLine, "no session line (sessionId) at the start: the file is skipped");
      return reading.result();
    }
    const cwd = await projectOf(file, fs);
    if (cwd === undefined) reading.problem(headerLine, "the project's directory is not recorded beside the chat (.project_root): hooks see no cwd");
    const call = (eventName: string, line: number, at: string | undefined, fields: Record<string, unknown>): HistoryCall =>
      reading.call(eventName, { ...geminiStyleFields(session, file, cwd, eventName, at), ...fields }, { line, at, session });
    const started = text(header?.startTime);
    reading.push(call("SessionStart", headerLine, started, { source: "startup" }));
    let prompt = "";
    for (const { line, value } of [...messages.values()].sort((a, b) => a.line - b.line)) {
      const at = text(value.timestamp);
      if (value.type === "user") {
        const typed = promptOf(value.content);
        if (typed === undefined) continue;
        prompt = typed;
        reading.push(call("BeforeAgent", line, at, { prompt }));
        continue;
      }
      if (value.type !== "gemini") continue;
      const toolCalls = Array.isArray(value.toolCalls) ? value.toolCalls.map(record) : [];
      for (const tool of toolCalls) {
        const name = text(tool?.name);
        if (!tool || name === undefined) continue;
        const input = record(tool.args) ?? {};
        const error = resultField(tool.result, "error");
        const before = call("BeforeTool", line, text(tool.timestamp) ?? at, { tool_name: name, tool_input: input });
        if (tool.status === "error" && typeof error === "string" && BLOCKED_BY_HOOK.test(error)) {
          reading.push({ ...before, blockedLive: error });
          continue;
        }
        reading.push(before);
        if (tool.status === "success")
          reading.push(
            call("AfterTool", line, text(tool.timestamp) ?? at, {
              tool_name: name,
              tool_input: input,
              tool_response: { llmContent: resultField(tool.result, "output") ?? "", returnDisplay: tool.resultDisplay ?? "" },
            }),
          );
      }
      const said = typeof value.content === "string" ? value.content : "";
      if (toolCalls.length === 0 && said !== "")
        reading.push(call("AfterAgent", line, at, { prompt, prompt_response: said, stop_hook_active: false }));
    }
    return reading.result();
  },
};

/** The text the person typed: the hooks' added context taken out; Gemini CLI's own session context is not a prompt. */
function promptOf(content: unknown): string | undefined {
  const parts = Array.isArray(content) ? content.map(record) : typeof content === "string" ? [{ text: content }] : [];
  if (parts.some((part) => part && "functionResponse" in part)) return undefined;
  const typed = parts
    .map((part) => text(part?.text) ?? "")
    .join("\n")
    .replace(ADDED_TEXT, "")
    .trim();
  return typed === "" || typed.startsWith("<session_context>") ? undefined : typed;
}

/** A field of a tool call's functionResponse (`output`, `error`). */
function resultField(result: unknown, field: string): unknown {
  const first = Array.isArray(result) ? record(result[0]) : undefined;
  return record(record(first?.functionResponse)?.response)?.[field];
}

async function projectOf(file: string, fs: HistoryFs): Promise<string | undefined> {
  const dir = file.slice(0, file.lastIndexOf("/chats/"));
  if (dir === "") return undefined;
  const root = (await fs.readText(`${dir}/.project_root`).catch(() => "")).trim();
  return root.startsWith("/") ? root : undefined;
}

function wholeDocument(content: string): Readonly<Record<string, unknown>> | undefined {
  try {
    const value = JSON.parse(content) as unknown;
    return record(value) && Array.isArray(record(value)?.messages) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
