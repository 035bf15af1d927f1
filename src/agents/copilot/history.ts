import { agentConfigDir } from "../shared/install/paths.ts";
import { HistoryReading, record, text, within } from "../shared/history/lines.ts";
import type { HistoryCall, HistoryFormat } from "../shared/history/types.ts";

/**
 * Copilot CLI's session events: `$COPILOT_HOME (else ~/.copilot)/session-state/<session id>/events.jsonl`,
 * one `{type, data, id, timestamp}` per line. `session.start` names the session and its cwd;
 * `user.message` is a prompt; `assistant.message` `toolRequests` are the tool calls, and
 * `tool.execution_complete` says how each went (`error.code: denied` when a hook or a refusal
 * stopped it); `assistant.turn_end` after a message without tool requests ends the agent's turn.
 * The payloads rebuilt are the camelCase ones `install-agent copilot` receives (`toolName`,
 * `toolArgs`: test/e2e/agents/captured/copilot-cli). Copilot CLI 1.0.102.
 */

/** Events that carry no hook call of their own (hook.start/hook.end repeat what the others say). */
const BOOKKEEPING =
  /^(session\.(?!start$)|hook\.|system\.|assistant\.(turn_start|usage|reasoning|intent)|tool\.execution_(start|partial_result|progress)|subagent\.|skill\.|abort|info|warning|error|result)/;

export const copilotHistory: HistoryFormat = {
  agent: "copilot",
  where: "Copilot CLI's session events: $COPILOT_HOME (else ~/.copilot)/session-state/<session>/events.jsonl",

  async sessionsOf(project, places, fs) {
    const root = `${agentConfigDir(places.env.COPILOT_HOME, project, `${places.home}/.copilot`)}/session-state`;
    const files: string[] = [];
    for (const entry of await fs.listDir(root).catch(() => [])) {
      if (entry.kind !== "dir") continue;
      const file = `${root}/${entry.name}/events.jsonl`;
      const first = (await fs.readText(file).catch(() => "")).split("\n", 1)[0] ?? "";
      const cwd = startCwd(first);
      if (cwd !== undefined && within(cwd, project)) files.push(file);
    }
    return files;
  },

  recognizes(path, first) {
    return /\/session-state\/[^/]+\/events\.jsonl$/.test(path) || /"type"\s*:\s*"session\.start"/.test(first);
  },

  async read(file, content) {
    const reading = new HistoryReading<{ name: string; args: unknown }>("copilot", file);
    let session: string | undefined;
    let cwd: string | undefined;
    let lastSaid: string | undefined;
    for (const { line, value } of reading.entries(content)) {
      const type = text(value.type);
      const data = record(value.data);
      if (type === undefined || data === undefined) {
        reading.unknown(line, "no type or data");
        continue;
      }
      const at = text(value.timestamp);
      const millis = at !== undefined && !Number.isNaN(Date.parse(at)) ? Date.parse(at) : undefined;
      const call = (eventName: string, fields: Record<string, unknown>): HistoryCall | undefined => {
        if (session === undefined) {
          reading.problem(line, "a call before the session.start line (truncated at its start?): skipped");
          return undefined;
        }
        return reading.call(
          eventName,
          { sessionId: session, ...(millis !== undefined ? { timestamp: millis } : {}), ...(cwd !== undefined ? { cwd } : {}), ...fields },
          { line, at, session },
        );
      };
      if (type === "session.start") {
        session = text(data.sessionId);
        cwd = text(record(data.context)?.cwd) ?? cwd;
        reading.push(call("sessionStart", { source: "new" }));
        continue;
      }
      if (type === "user.message") {
        const prompt = text(data.content);
        if (prompt !== undefined && prompt !== "") reading.push(call("userPromptSubmitted", { prompt }));
        continue;
      }
      if (type === "assistant.message") {
        const requests = Array.isArray(data.toolRequests) ? data.toolRequests.map(record) : [];
        lastSaid = requests.length === 0 ? (text(data.content) ?? "") : undefined;
        for (const request of requests) {
          const id = text(request?.toolCallId);
          const name = text(request?.name);
          if (!request || id === undefined || name === undefined) continue;
          const made = call("preToolUse", { toolName: name, toolArgs: request.arguments ?? {} });
          if (made) reading.toolCall(id, { name, args: request.arguments ?? {} }, made);
        }
        continue;
      }
      if (type === "tool.execution_complete") {
        const id = text(data.toolCallId);
        const tool = reading.tool(id);
        if (!tool || id === undefined) continue;
        const error = record(data.error);
        if (error?.code === "denied") {
          reading.blocked(id, text(error.message) ?? "denied");
          continue;
        }
        const result = record(data.result);
        reading.push(
          data.success === false
            ? call("postToolUseFailure", { toolName: tool.name, toolArgs: tool.args, error: text(error?.message) ?? "" })
            : call("postToolUse", {
                toolName: tool.name,
                toolArgs: tool.args,
                toolResult: { resultType: "success", textResultForLlm: text(result?.content) ?? "" },
              }),
        );
        continue;
      }
      if (type === "assistant.turn_end") {
        if (lastSaid !== undefined) reading.push(call("agentStop", { stopReason: "end_turn", stop_hook_active: false }));
        lastSaid = undefined;
        continue;
      }
      if (!BOOKKEEPING.test(type)) reading.unknown(line, `type ${JSON.stringify(type).slice(0, 60)}`);
    }
    return reading.result();
  },
};

function startCwd(first: string): string | undefined {
  try {
    const value = JSON.parse(first) as { type?: unknown; data?: { context?: { cwd?: unknown } } };
    return value.type === "session.start" && typeof value.data?.context?.cwd === "string" ? value.data.context.cwd : undefined;
  } catch {
    return undefined;
  }
}
