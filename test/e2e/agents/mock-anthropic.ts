// A scripted stand-in for the Anthropic Messages API on 127.0.0.1, good enough for the real
// Claude Code CLI: it streams SSE the way the SDK parses it and records every request so a test
// can assert what the "model" saw (tool results, hook errors, additionalContext system messages).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { closeServer, listenLocal, parseJson, readBody, sendJson } from "./local-http.ts";
import { Script, say, type ModelTurn, type ScriptStep } from "./script.ts";

export { say, useTool, type ModelTurn } from "./script.ts";

/** The parts of a Messages API request body the tests look at; the rest is kept as-is. */
export interface MessagesRequest {
  readonly model?: string;
  readonly stream?: boolean;
  readonly system?: string | ReadonlyArray<{ type: string; text?: string }>;
  readonly messages: ReadonlyArray<{ role: string; content: string | ReadonlyArray<ContentBlock> }>;
  readonly tools?: ReadonlyArray<{ name: string }>;
  readonly [key: string]: unknown;
}

export interface ContentBlock {
  readonly type: string;
  readonly text?: string;
  readonly tool_use_id?: string;
  readonly is_error?: boolean;
  readonly content?: string | ReadonlyArray<{ type: string; text?: string }>;
  readonly [key: string]: unknown;
}

/**
 * "turn": answered from the script (a request that offers tools — the agent loop).
 * "side": any other /v1/messages call (title or summary requests); answered with `sideText`.
 */
export type RequestKind = "turn" | "side" | "count_tokens" | "other";

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly kind: RequestKind;
  readonly body: MessagesRequest | undefined;
}

/** Text of a tool_result block (string or text parts). */
export function toolResultText(block: ContentBlock): string {
  if (typeof block.content === "string") return block.content;
  return (block.content ?? []).map((part) => part.text ?? "").join("");
}

/** The tool_result blocks in the newest user message of a request. */
export function lastToolResults(request: MessagesRequest): ContentBlock[] {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i];
    if (message?.role !== "user" || typeof message.content === "string") continue;
    const results = message.content.filter((block) => block.type === "tool_result");
    if (results.length > 0) return results;
  }
  return [];
}

/**
 * What the mock says once the script runs out: it echoes the newest tool result, so the final
 * answer (and the Stop hook's `last_assistant_message`) shows what the model was told.
 */
export function echoLastToolResult(request: MessagesRequest): ModelTurn {
  const result = lastToolResults(request).at(-1);
  if (!result) return say("MOCK_FINAL: no tool result");
  return say(`MOCK_FINAL: tool_result is_error=${result.is_error === true} content=${JSON.stringify(toolResultText(result))}`);
}

/** Every piece of text a request carries: system prompt, messages, tool results. */
export function requestText(request: MessagesRequest): string {
  return [textOf(request.system), ...request.messages.map((message) => textOf(message.content))].join("\n");
}

/**
 * The text of the mid-conversation `role: "system"` messages — where Claude Code puts a hook's
 * additionalContext ("<Event> hook additional context: …").
 */
export function systemMessageText(request: MessagesRequest): string {
  return request.messages
    .filter((message) => message.role === "system")
    .map((message) => textOf(message.content))
    .join("\n");
}

function textOf(value: unknown): string {
  const parts: string[] = [];
  const collect = (node: unknown): void => {
    if (typeof node === "string") parts.push(node);
    else if (Array.isArray(node)) node.forEach(collect);
    else if (node && typeof node === "object") {
      const block = node as Record<string, unknown>;
      if (typeof block.text === "string") parts.push(block.text);
      if (block.content !== undefined) collect(block.content);
    }
  };
  collect(value);
  return parts.join("\n");
}

export interface MockAnthropicOptions {
  readonly script: readonly ScriptStep<MessagesRequest>[];
  /** Answer once the script is used up; defaults to echoing the newest tool result. */
  readonly after?: (request: MessagesRequest) => ModelTurn;
  /** Answer to side requests (no tools offered). */
  readonly sideText?: string;
}

export class MockAnthropic {
  readonly requests: RecordedRequest[] = [];
  private readonly server: Server;
  private readonly script: Script<MessagesRequest>;
  private messageCount = 0;
  private toolCount = 0;

  constructor(private readonly options: MockAnthropicOptions) {
    this.script = new Script(options.script, options.after ?? echoLastToolResult);
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  /** Listen on 127.0.0.1 at a free port; returns the base URL for ANTHROPIC_BASE_URL. */
  start(): Promise<string> {
    return listenLocal(this.server);
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  /** The agent-loop requests, in order: what the model saw turn by turn. */
  turns(): MessagesRequest[] {
    return this.requests.flatMap((r) => (r.kind === "turn" && r.body ? [r.body] : []));
  }

  /** Every tool_result block the model was sent (deduplicated by tool_use_id). */
  toolResults(): ContentBlock[] {
    const byId = new Map<string, ContentBlock>();
    for (const request of this.turns()) {
      for (const message of request.messages) {
        if (typeof message.content === "string") continue;
        for (const block of message.content) if (block.type === "tool_result") byId.set(String(block.tool_use_id), block);
      }
    }
    return [...byId.values()];
  }

  /**
   * The first turn request that reports on tool call `toolUseId` — the model's "next request"
   * after calling it — and the tool_result block in it.
   */
  resultOf(toolUseId: string): { readonly turn: number; readonly request: MessagesRequest; readonly result: ContentBlock } | undefined {
    const turns = this.turns();
    for (const [turn, request] of turns.entries()) {
      const result = lastToolResults(request).find((block) => block.tool_use_id === toolUseId);
      if (result) return { turn, request, result };
    }
    return undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const raw = await readBody(req);
    const body = parseJson<MessagesRequest>(raw);
    if (req.method === "POST" && path === "/v1/messages/count_tokens") {
      this.requests.push({ method: "POST", path, kind: "count_tokens", body });
      sendJson(res, 200, { input_tokens: Math.ceil(raw.length / 4) });
      return;
    }
    if (req.method !== "POST" || path !== "/v1/messages" || !body || !Array.isArray(body.messages)) {
      this.requests.push({ method: req.method ?? "?", path, kind: "other", body });
      sendJson(res, 404, { type: "error", error: { type: "not_found_error", message: `mock-anthropic: no route ${req.method} ${path}` } });
      return;
    }
    const isTurn = (body.tools?.length ?? 0) > 0;
    this.requests.push({ method: "POST", path, kind: isTurn ? "turn" : "side", body });
    const turn = isTurn ? this.script.answer(body) : say(this.options.sideText ?? "Mock title");
    if (body.stream) this.stream(res, body, turn);
    else sendJson(res, 200, this.message(body, turn));
  }

  /** Content blocks with ids filled in; ids look like real ones (Claude Code does not check). */
  private blocks(turn: ModelTurn): Array<Record<string, unknown>> {
    return turn.blocks.map((block) =>
      block.type === "text"
        ? { type: "text", text: block.text }
        : { type: "tool_use", id: block.id ?? `toolu_01MOCK${String(++this.toolCount).padStart(20, "0")}`, name: block.name, input: block.input },
    );
  }

  private message(request: MessagesRequest, turn: ModelTurn): Record<string, unknown> {
    const content = this.blocks(turn);
    return {
      id: `msg_mock${++this.messageCount}`,
      type: "message",
      role: "assistant",
      model: request.model ?? "mock",
      content,
      stop_reason: content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 10 },
    };
  }

  /** The SSE sequence the Anthropic SDK's stream parser expects, one delta per block. */
  private stream(res: ServerResponse, request: MessagesRequest, turn: ModelTurn): void {
    const message = this.message(request, turn);
    const content = message.content as Array<Record<string, unknown>>;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const send = (event: string, data: Record<string, unknown>): void =>
      void res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
    send("message_start", { message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } });
    content.forEach((block, index) => {
      if (block.type === "text") {
        send("content_block_start", { index, content_block: { type: "text", text: "" } });
        send("content_block_delta", { index, delta: { type: "text_delta", text: block.text } });
      } else {
        send("content_block_start", { index, content_block: { ...block, input: {} } });
        send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
      }
      send("content_block_stop", { index });
    });
    send("message_delta", { delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: 10 } });
    send("message_stop", {});
    res.end();
  }
}
