// A scripted stand-in for OpenAI's Responses API (`POST /v1/responses`) and Chat Completions API
// (`POST /v1/chat/completions`) on 127.0.0.1, streaming (SSE) or not, good enough for Codex CLI,
// Copilot CLI, Qwen Code and opencode. It records every request so a test can assert what the
// "model" saw; both wire formats are read back through one view (toolOutputs, requestText).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { closeServer, listenLocal, parseJson, readBody, sendJson } from "./local-http.ts";
import { Script, say, type ModelBlock, type ModelTurn, type ScriptStep } from "./script.ts";

export { say, useTool, type ModelTurn } from "./script.ts";

export type OpenAIApi = "responses" | "chat";

/** A request body as sent; the mock reads `input`/`messages`, `tools`, `stream` and keeps the rest as-is. */
export type OpenAIBody = Readonly<Record<string, unknown>>;

/** One agent-loop request: which API it came through and its body. Script steps receive this. */
export interface OpenAIRequest {
  readonly api: OpenAIApi;
  readonly body: OpenAIBody;
}

/**
 * "turn": a request that offers tools (the agent loop), answered from the script.
 * "side": a generation without tools (titles, summaries, next-speaker checks), answered with `sideText`.
 */
export type OpenAIRequestKind = "turn" | "side" | "models" | "other";

export interface RecordedOpenAIRequest {
  readonly method: string;
  readonly path: string;
  readonly kind: OpenAIRequestKind;
  readonly api?: OpenAIApi;
  readonly body: OpenAIBody | undefined;
}

/** A tool's result as the client reported it to the model, whichever API carried it. */
export interface ToolOutput {
  readonly callId: string;
  readonly text: string;
}

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter((item): item is Record<string, unknown> => typeof item === "object" && item !== null) : [];
}

/** Text of a message content or tool output: a string, or parts with `text` (input_text, output_text, text). */
export function contentText(value: unknown): string {
  if (typeof value === "string") return value;
  return records(value)
    .map((part) => (typeof part.text === "string" ? part.text : ""))
    .join("");
}

/**
 * The tool results a request carries, in order: Responses `function_call_output` and
 * `custom_tool_call_output` items, or Chat Completions `role: "tool"` messages.
 */
export function toolOutputs(request: OpenAIRequest): ToolOutput[] {
  if (request.api === "responses") {
    return records(request.body.input)
      .filter((item) => item.type === "function_call_output" || item.type === "custom_tool_call_output")
      .map((item) => ({ callId: String(item.call_id), text: contentText(item.output) }));
  }
  return records(request.body.messages)
    .filter((message) => message.role === "tool")
    .map((message) => ({ callId: String(message.tool_call_id), text: contentText(message.content) }));
}

/** Every piece of text a request carries: instructions, system and user messages, tool results. */
export function requestText(request: OpenAIRequest): string {
  const parts: string[] = [];
  if (typeof request.body.instructions === "string") parts.push(request.body.instructions);
  const items =
    request.api === "responses"
      ? typeof request.body.input === "string"
        ? [{ content: request.body.input }]
        : records(request.body.input)
      : records(request.body.messages);
  for (const item of items) {
    parts.push(contentText(item.content));
    if (item.output !== undefined) parts.push(contentText(item.output));
  }
  return parts.filter(Boolean).join("\n");
}

/** Once the script runs out: echo the newest tool result, so the final answer shows what the model was told. */
export function echoLastToolOutput(request: OpenAIRequest): ModelTurn {
  const output = toolOutputs(request).at(-1);
  if (!output) return say("MOCK_FINAL: no tool result");
  return say(`MOCK_FINAL: tool output=${JSON.stringify(output.text)}`);
}

export interface MockOpenAIOptions {
  readonly script: readonly ScriptStep<OpenAIRequest>[];
  /** Answer once the script is used up; defaults to echoing the newest tool result. */
  readonly after?: (request: OpenAIRequest) => ModelTurn;
  /** Answer to side requests (no tools offered). */
  readonly sideText?: string;
  /** Models listed at GET /v1/models. */
  readonly models?: readonly string[];
}

/**
 * Tool calls: a block whose `input` holds a string under `CUSTOM_INPUT` becomes a custom tool call
 * (free-form input: how Codex and Copilot CLI call apply_patch) — a Responses `custom_tool_call`,
 * a Chat Completions `type: "custom"` call; any other becomes a function call with JSON arguments.
 */
export const CUSTOM_INPUT = "$custom_input";

type ToolBlock = Extract<ModelBlock, { type: "tool_use" }>;

function customInput(block: ToolBlock): string | undefined {
  const value = block.input[CUSTOM_INPUT];
  return typeof value === "string" ? value : undefined;
}

export class MockOpenAI {
  readonly requests: RecordedOpenAIRequest[] = [];
  private readonly server: Server;
  private readonly script: Script<OpenAIRequest>;
  private responseCount = 0;
  private callCount = 0;

  constructor(private readonly options: MockOpenAIOptions) {
    this.script = new Script(options.script, options.after ?? echoLastToolOutput);
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  /** Listen on 127.0.0.1 at a free port; returns the origin (clients want `${origin}/v1`). */
  start(): Promise<string> {
    return listenLocal(this.server);
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  /** The agent-loop requests, in order: what the model saw turn by turn. */
  turns(): OpenAIRequest[] {
    return this.requests.flatMap((r) => (r.kind === "turn" && r.body && r.api ? [{ api: r.api, body: r.body }] : []));
  }

  /** The first turn request that reports on tool call `callId` — the model's "next request" — and the result in it. */
  resultOf(callId: string): { readonly turn: number; readonly request: OpenAIRequest; readonly output: ToolOutput } | undefined {
    for (const [turn, request] of this.turns().entries()) {
      const output = toolOutputs(request).find((candidate) => candidate.callId === callId);
      if (output) return { turn, request, output };
    }
    return undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const raw = await readBody(req);
    const body = parseJson<OpenAIBody>(raw);
    if (req.method === "GET" && /\/models$/.test(path)) {
      this.requests.push({ method: "GET", path, kind: "models", body });
      const ids = this.options.models ?? ["mock-model"];
      sendJson(res, 200, { object: "list", data: ids.map((id) => ({ id, object: "model", created: 1_700_000_000, owned_by: "mock" })) });
      return;
    }
    const api: OpenAIApi | undefined = /\/responses$/.test(path) ? "responses" : /\/chat\/completions$/.test(path) ? "chat" : undefined;
    if (req.method !== "POST" || !api || !body) {
      this.requests.push({ method: req.method ?? "?", path, kind: "other", body });
      sendJson(res, 404, { error: { message: `mock-openai: no route ${req.method} ${path}`, type: "invalid_request_error", code: "not_found" } });
      return;
    }
    const isTurn = Array.isArray(body.tools) && body.tools.length > 0;
    this.requests.push({ method: "POST", path, kind: isTurn ? "turn" : "side", api, body });
    const turn = isTurn ? this.script.answer({ api, body }) : say(this.options.sideText ?? "Mock title");
    const model = typeof body.model === "string" ? body.model : "mock-model";
    if (api === "responses") {
      if (body.stream === true) streamResponse(res, this.response(model, turn));
      else sendJson(res, 200, this.response(model, turn));
    } else if (body.stream === true) streamChat(res, this.completion(model, turn), body);
    else sendJson(res, 200, this.completion(model, turn));
  }

  private callId(block: ToolBlock): string {
    return block.id ?? `call_mock_${String(++this.callCount).padStart(4, "0")}`;
  }

  /** A Responses API `response` object, status completed, one output item per block. */
  private response(model: string, turn: ModelTurn): ResponseObject {
    const id = `resp_mock${++this.responseCount}`;
    const output = turn.blocks.map((block, index): OutputItem => {
      if (block.type === "text") {
        return {
          type: "message",
          id: `msg_${id}_${index}`,
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", text: block.text, annotations: [] }],
        };
      }
      const custom = customInput(block);
      const callId = this.callId(block);
      return custom !== undefined
        ? { type: "custom_tool_call", id: `ctc_${id}_${index}`, status: "completed", call_id: callId, name: block.name, input: custom }
        : {
            type: "function_call",
            id: `fc_${id}_${index}`,
            status: "completed",
            call_id: callId,
            name: block.name,
            arguments: JSON.stringify(block.input),
          };
    });
    return {
      id,
      object: "response",
      created_at: Math.floor(Date.now() / 1000),
      status: "completed",
      model,
      output,
      usage: {
        input_tokens: 10,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 10,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 20,
      },
    };
  }

  /** A Chat Completions `chat.completion` object: one message with the text and the tool calls. */
  private completion(model: string, turn: ModelTurn): ChatCompletion {
    const text = turn.blocks.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
    const calls = turn.blocks.flatMap((block): ChatToolCall[] => {
      if (block.type !== "tool_use") return [];
      const custom = customInput(block);
      return [
        custom !== undefined
          ? { id: this.callId(block), type: "custom", custom: { name: block.name, input: custom } }
          : { id: this.callId(block), type: "function", function: { name: block.name, arguments: JSON.stringify(block.input) } },
      ];
    });
    return {
      id: `chatcmpl-mock${++this.responseCount}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: text === "" ? null : text, ...(calls.length > 0 && { tool_calls: calls }) },
          finish_reason: calls.length > 0 ? "tool_calls" : "stop",
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    };
  }
}

type OutputItem =
  | { type: "message"; id: string; status: "completed"; role: "assistant"; content: { type: "output_text"; text: string; annotations: [] }[] }
  | { type: "function_call"; id: string; status: "completed"; call_id: string; name: string; arguments: string }
  | { type: "custom_tool_call"; id: string; status: "completed"; call_id: string; name: string; input: string };

interface ResponseObject {
  readonly id: string;
  readonly object: "response";
  readonly created_at: number;
  readonly status: string;
  readonly model: string;
  readonly output: OutputItem[];
  readonly usage: Record<string, unknown>;
}

/** A function call, or a custom (free-form input) tool call — how Copilot CLI offers apply_patch. */
type ChatToolCall =
  | { id: string; type: "function"; function: { name: string; arguments: string } }
  | { id: string; type: "custom"; custom: { name: string; input: string } };

interface ChatCompletion {
  readonly id: string;
  readonly object: "chat.completion";
  readonly created: number;
  readonly model: string;
  readonly choices: [
    { index: 0; message: { role: "assistant"; content: string | null; tool_calls?: ChatToolCall[] }; finish_reason: string; logprobs: null },
  ];
  readonly usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

function sseHeaders(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
}

/**
 * The Responses API's documented event sequence: created, in_progress, then per output item
 * output_item.added → (content_part.added, output_text.delta, output_text.done, content_part.done |
 * function_call_arguments.delta/.done | custom_tool_call_input.delta/.done) → output_item.done,
 * and response.completed with the whole response. Every event names its `type` in the data too.
 */
function streamResponse(res: ServerResponse, response: ResponseObject): void {
  sseHeaders(res);
  let sequence = 0;
  const send = (type: string, data: Record<string, unknown>): void =>
    void res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
  const pending = { ...response, status: "in_progress", output: [], usage: null };
  send("response.created", { response: pending });
  send("response.in_progress", { response: pending });
  response.output.forEach((item, output_index) => {
    const item_id = item.id;
    if (item.type === "message") {
      send("response.output_item.added", { output_index, item: { ...item, status: "in_progress", content: [] } });
      item.content.forEach((part, content_index) => {
        send("response.content_part.added", { item_id, output_index, content_index, part: { ...part, text: "" } });
        send("response.output_text.delta", { item_id, output_index, content_index, delta: part.text, logprobs: [] });
        send("response.output_text.done", { item_id, output_index, content_index, text: part.text, logprobs: [] });
        send("response.content_part.done", { item_id, output_index, content_index, part });
      });
    } else if (item.type === "function_call") {
      send("response.output_item.added", { output_index, item: { ...item, status: "in_progress", arguments: "" } });
      send("response.function_call_arguments.delta", { item_id, output_index, delta: item.arguments });
      send("response.function_call_arguments.done", { item_id, output_index, name: item.name, arguments: item.arguments });
    } else {
      send("response.output_item.added", { output_index, item: { ...item, status: "in_progress", input: "" } });
      send("response.custom_tool_call_input.delta", { item_id, output_index, delta: item.input });
      send("response.custom_tool_call_input.done", { item_id, output_index, input: item.input });
    }
    send("response.output_item.done", { output_index, item });
  });
  send("response.completed", { response });
  res.end();
}

/**
 * Chat Completions streaming: `chat.completion.chunk`s — the role, the text, each tool call
 * (id, name and whole arguments in one delta), then an empty delta with finish_reason, a usage
 * chunk when `stream_options.include_usage` asked for one, and `data: [DONE]`.
 */
function streamChat(res: ServerResponse, completion: ChatCompletion, body: OpenAIBody): void {
  sseHeaders(res);
  const base = { id: completion.id, object: "chat.completion.chunk", created: completion.created, model: completion.model };
  const send = (data: Record<string, unknown>): void => void res.write(`data: ${JSON.stringify({ ...base, ...data })}\n\n`);
  const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null): void =>
    send({ choices: [{ index: 0, delta, finish_reason, logprobs: null }] });
  const { message, finish_reason } = completion.choices[0];
  chunk({ role: "assistant", content: "" });
  if (message.content) chunk({ content: message.content });
  (message.tool_calls ?? []).forEach((call, index) => chunk({ tool_calls: [{ index, ...call }] }));
  chunk({}, finish_reason);
  const streamOptions = body.stream_options as { include_usage?: boolean } | undefined;
  if (streamOptions?.include_usage) send({ choices: [], usage: completion.usage });
  res.write("data: [DONE]\n\n");
  res.end();
}
