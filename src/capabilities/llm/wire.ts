import type { LlmApi } from "./schema.ts";

/** One single-turn request, as Hookbox asks it whatever the API. */
export interface CompletionRequest {
  readonly model: string;
  readonly system: string;
  readonly prompt: string;
  readonly maxTokens: number;
  /** Asked of the server where its API can constrain the answer (the answer is validated here anyway). */
  readonly jsonSchema: Readonly<Record<string, unknown>> | undefined;
}

/** What came back: the text, and the token counts when the server gave them. */
export interface CompletionReply {
  readonly text: string;
  readonly inputTokens: number | undefined;
  readonly outputTokens: number | undefined;
  /** Why the model stopped (length: it ran out of max_tokens). */
  readonly stop: string | undefined;
}

export interface WireFormat {
  /** The request's URL from the endpoint's base URL. */
  url(base: string): string;
  headers(apiKey: string | undefined): Record<string, string>;
  body(request: CompletionRequest): unknown;
  /** The reply from a 2xx body; a string says what is wrong with it. */
  reply(body: unknown): CompletionReply | string;
  /** The server's own words from an error body. */
  errorText(body: unknown): string | undefined;
}

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => typeof value === "object" && value !== null && !Array.isArray(value);
const count = (value: unknown): number | undefined => (typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined);
const join = (base: string, path: string): string => `${base.replace(/\/+$/, "")}${path}`;
const JSON_HEADERS = { "content-type": "application/json", accept: "application/json", "user-agent": "hookbox" };

/** OpenAI's and Ollama's authorization: a bearer token, when the endpoint has a key. */
const bearerHeaders = (key: string | undefined): Record<string, string> => ({ ...JSON_HEADERS, ...(key ? { authorization: `Bearer ${key}` } : {}) });

/** The system prompt and the user's, as both chat APIs take them. */
const chatMessages = (request: { readonly system: string; readonly prompt: string }): { role: string; content: string }[] => [
  { role: "system", content: request.system },
  { role: "user", content: request.prompt },
];

/** OpenAI chat completions: llama.cpp's server, vLLM, LM Studio, Ollama's /v1, and OpenAI itself. */
const openai: WireFormat = {
  url: (base) => join(base, "/chat/completions"),
  headers: bearerHeaders,
  body: (request) => ({
    model: request.model,
    messages: chatMessages(request),
    max_tokens: request.maxTokens,
    temperature: 0,
    stream: false,
    ...(request.jsonSchema ? { response_format: { type: "json_schema", json_schema: { name: "answer", schema: request.jsonSchema } } } : {}),
  }),
  reply: (body) => {
    if (!isObj(body) || !Array.isArray(body.choices)) return "no choices in the reply";
    const choice = body.choices[0];
    const message = isObj(choice) && isObj(choice.message) ? choice.message : undefined;
    if (!message || typeof message.content !== "string") return "the first choice has no message content";
    const usage = isObj(body.usage) ? body.usage : {};
    return {
      text: message.content,
      inputTokens: count(usage.prompt_tokens),
      outputTokens: count(usage.completion_tokens),
      stop: isObj(choice) && typeof choice.finish_reason === "string" ? choice.finish_reason : undefined,
    };
  },
  errorText: (body) => (isObj(body) && isObj(body.error) && typeof body.error.message === "string" ? body.error.message : undefined),
};

/** Ollama's own chat API (POST /api/chat, stream off). */
const ollama: WireFormat = {
  url: (base) => (/\/api\/?$/.test(base) ? join(base, "/chat") : join(base, "/api/chat")),
  headers: bearerHeaders,
  body: (request) => ({
    model: request.model,
    messages: chatMessages(request),
    stream: false,
    ...(request.jsonSchema ? { format: request.jsonSchema } : {}),
    options: { num_predict: request.maxTokens, temperature: 0 },
  }),
  reply: (body) => {
    if (!isObj(body) || !isObj(body.message) || typeof body.message.content !== "string") return "no message content in the reply";
    return {
      text: body.message.content,
      inputTokens: count(body.prompt_eval_count),
      outputTokens: count(body.eval_count),
      stop: typeof body.done_reason === "string" ? body.done_reason : undefined,
    };
  },
  errorText: (body) => (isObj(body) && typeof body.error === "string" ? body.error : undefined),
};

/** The Anthropic Messages API (POST /v1/messages). It cannot constrain the answer to a schema: the system prompt asks for it. */
const anthropic: WireFormat = {
  url: (base) => (/\/v1\/?$/.test(base) ? join(base, "/messages") : join(base, "/v1/messages")),
  headers: (key) => ({ ...JSON_HEADERS, "anthropic-version": "2023-06-01", ...(key ? { "x-api-key": key } : {}) }),
  body: (request) => ({
    model: request.model,
    max_tokens: request.maxTokens,
    system: request.system,
    messages: [{ role: "user", content: request.prompt }],
    temperature: 0,
  }),
  reply: (body) => {
    if (!isObj(body) || !Array.isArray(body.content)) return "no content in the reply";
    const text = body.content
      .filter((block): block is Obj => isObj(block) && block.type === "text" && typeof block.text === "string")
      .map((block) => block.text as string)
      .join("");
    const usage = isObj(body.usage) ? body.usage : {};
    return {
      text,
      inputTokens: count(usage.input_tokens),
      outputTokens: count(usage.output_tokens),
      stop: typeof body.stop_reason === "string" ? body.stop_reason : undefined,
    };
  },
  errorText: (body) => (isObj(body) && isObj(body.error) && typeof body.error.message === "string" ? body.error.message : undefined),
};

export const WIRE_FORMATS: Readonly<Record<LlmApi, WireFormat>> = { openai, ollama, anthropic };
