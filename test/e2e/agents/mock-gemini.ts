// A scripted stand-in for the Gemini API (generativelanguage v1beta) on 127.0.0.1, good enough for
// the real Gemini CLI via GOOGLE_GEMINI_BASE_URL: it answers `:streamGenerateContent?alt=sse` from
// a script and records every request so a test can assert what the "model" saw.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { closeServer, listenLocal, parseJson, readBody, sendJson } from "./local-http.ts";
import { Script, say, type ModelTurn, type ScriptStep } from "./script.ts";

export { say, useTool, type ModelTurn } from "./script.ts";

export interface GeminiPart {
  readonly text?: string;
  readonly functionCall?: { readonly id?: string; readonly name: string; readonly args?: Record<string, unknown> };
  readonly functionResponse?: { readonly id?: string; readonly name: string; readonly response?: Record<string, unknown> };
  readonly [key: string]: unknown;
}

/** The parts of a generateContent request body the tests look at; the rest is kept as-is. */
export interface GeminiRequest {
  readonly contents: ReadonlyArray<{ readonly role?: string; readonly parts?: readonly GeminiPart[] }>;
  readonly systemInstruction?: { readonly parts?: readonly GeminiPart[] } | string;
  readonly tools?: ReadonlyArray<{ readonly functionDeclarations?: ReadonlyArray<{ name: string }> }>;
  readonly [key: string]: unknown;
}

/**
 * "turn": a streamGenerateContent call that offers tools — the agent loop, answered from the script.
 * "side": any other generate call (routing classifier, next-speaker check, summaries).
 */
export type GeminiRequestKind = "turn" | "side" | "count_tokens" | "other";

export interface RecordedGeminiRequest {
  readonly method: string;
  readonly path: string;
  readonly model: string;
  readonly kind: GeminiRequestKind;
  readonly body: GeminiRequest | undefined;
}

/**
 * Gemini CLI's side calls ask for JSON (next speaker, model routing); one object satisfies the
 * schemas seen in 0.61.0 so a side call never derails a run.
 */
const SIDE_JSON = JSON.stringify({ reasoning: "mock", next_speaker: "user", complexity_reasoning: "mock", complexity_score: 1 });

/** The functionResponse parts of the newest content that has any. */
export function lastFunctionResponses(request: GeminiRequest): NonNullable<GeminiPart["functionResponse"]>[] {
  for (let i = request.contents.length - 1; i >= 0; i--) {
    const responses = (request.contents[i]?.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
    if (responses.length > 0) return responses;
  }
  return [];
}

/** Once the script runs out: echo the newest tool result, so the final answer shows what the model was told. */
export function echoLastFunctionResponse(request: GeminiRequest): ModelTurn {
  const response = lastFunctionResponses(request).at(-1);
  if (!response) return say("MOCK_FINAL: no tool result");
  return say(`MOCK_FINAL: functionResponse ${response.name} ${JSON.stringify(response.response ?? {})}`);
}

/** Every piece of text a request carries: system instruction, text parts, function responses. */
export function geminiRequestText(request: GeminiRequest): string {
  const parts: string[] = [];
  const collect = (part: GeminiPart): void => {
    if (typeof part.text === "string") parts.push(part.text);
    if (part.functionResponse) parts.push(JSON.stringify(part.functionResponse.response ?? {}));
  };
  if (typeof request.systemInstruction === "string") parts.push(request.systemInstruction);
  else request.systemInstruction?.parts?.forEach(collect);
  for (const content of request.contents) content.parts?.forEach(collect);
  return parts.join("\n");
}

export interface MockGeminiOptions {
  readonly script: readonly ScriptStep<GeminiRequest>[];
  /** Answer once the script is used up; defaults to echoing the newest function response. */
  readonly after?: (request: GeminiRequest) => ModelTurn;
  /** Answer to side calls (text of the single candidate). */
  readonly sideText?: string;
}

export class MockGemini {
  readonly requests: RecordedGeminiRequest[] = [];
  private readonly server: Server;
  private readonly script: Script<GeminiRequest>;
  private callCount = 0;

  constructor(private readonly options: MockGeminiOptions) {
    this.script = new Script(options.script, options.after ?? echoLastFunctionResponse);
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  /** Listen on 127.0.0.1 at a free port; returns the base URL for GOOGLE_GEMINI_BASE_URL. */
  start(): Promise<string> {
    return listenLocal(this.server);
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  /** The agent-loop requests, in order. */
  turns(): GeminiRequest[] {
    return this.requests.flatMap((r) => (r.kind === "turn" && r.body ? [r.body] : []));
  }

  /**
   * The first turn request that reports on a call of tool `name` — the model's "next request" —
   * and the functionResponse in it. Gemini CLI makes up its own call ids, so tools go by name.
   */
  resultOf(name: string): { readonly turn: number; readonly request: GeminiRequest; readonly response: Record<string, unknown> } | undefined {
    for (const [turn, request] of this.turns().entries()) {
      const found = lastFunctionResponses(request).find((response) => response.name === name);
      if (found) return { turn, request, response: found.response ?? {} };
    }
    return undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const raw = await readBody(req);
    const body = parseJson<GeminiRequest>(raw);
    // /v1beta/models/<model>:<method>
    const match = /^\/v1(?:beta|alpha)?\/models\/([^:/]+):(\w+)$/.exec(path);
    const [model, method] = [match?.[1] ?? "", match?.[2] ?? ""];
    if (req.method === "POST" && method === "countTokens") {
      this.requests.push({ method: "POST", path, model, kind: "count_tokens", body });
      sendJson(res, 200, { totalTokens: Math.ceil(raw.length / 4) });
      return;
    }
    if (req.method !== "POST" || !["generateContent", "streamGenerateContent"].includes(method) || !body || !Array.isArray(body.contents)) {
      this.requests.push({ method: req.method ?? "?", path, model, kind: "other", body });
      sendJson(res, 404, { error: { code: 404, message: `mock-gemini: no route ${req.method} ${path}`, status: "NOT_FOUND" } });
      return;
    }
    const offersTools = (body.tools ?? []).some((tool) => (tool.functionDeclarations?.length ?? 0) > 0);
    const isTurn = method === "streamGenerateContent" && offersTools;
    this.requests.push({ method: "POST", path, model, kind: isTurn ? "turn" : "side", body });
    const turn = isTurn ? this.script.answer(body) : say(this.options.sideText ?? SIDE_JSON);
    const response = this.response(model, turn);
    if (method === "generateContent") {
      sendJson(res, 200, response);
      return;
    }
    // alt=sse: one `data:` event per chunk; the whole turn fits in one chunk.
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.end(`data: ${JSON.stringify(response)}\r\n\r\n`);
  }

  private response(model: string, turn: ModelTurn): Record<string, unknown> {
    const parts = turn.blocks.map((block) =>
      block.type === "text" ? { text: block.text } : { functionCall: { name: block.name, args: block.input, ...(block.id ? { id: block.id } : {}) } },
    );
    return {
      candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
      modelVersion: model || "mock",
      responseId: `mock-${++this.callCount}`,
    };
  }
}
