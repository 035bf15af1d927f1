// A local model server for tests, speaking the documented wire formats of OpenAI's chat
// completions (POST /v1/chat/completions) and Ollama's chat API (POST /api/chat): each request
// is answered by the next scripted reply and recorded (path, headers, body) for the test to check.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type MockReply =
  /** The model's answer, with these token counts (omitted: none reported). */
  | { readonly content: string; readonly usage?: { readonly input: number; readonly output: number } }
  /** An HTTP error with the API's own error body. */
  | { readonly status: number; readonly error: string }
  /** Never answers (a model stuck loading): the client's timeout must fire. */
  | { readonly hang: true }
  /** A 200 whose body is not the API's JSON. */
  | { readonly raw: string };

export interface RecordedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
}

export class MockLlmServer {
  readonly requests: RecordedRequest[] = [];
  private replies: MockReply[] = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<MockLlmServer> {
    const ready: { mock?: MockLlmServer } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => void ready.mock?.answer(req.url ?? "", req.headers, Buffer.concat(chunks).toString("utf8"), res));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const mock = new MockLlmServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    ready.mock = mock;
    return mock;
  }

  /** Replies for the next requests, in order; when they run out, a 500 says so. */
  script(...replies: MockReply[]): void {
    this.replies = [...replies];
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(path: string, headers: IncomingHttpHeaders, text: string, res: ServerResponse): void {
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // recorded as {}: the test sees a request that was not JSON
    }
    this.requests.push({ path, headers, body });
    const ollama = path === "/api/chat";
    if (!ollama && path !== "/v1/chat/completions")
      return json(
        res,
        404,
        ollama ? { error: "not found" } : { error: { message: `no route ${path}`, type: "invalid_request_error", param: null, code: null } },
      );
    const reply = this.replies.shift() ?? { status: 500, error: "the test scripted no more replies" };
    if ("hang" in reply) return;
    if ("raw" in reply) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(reply.raw);
      return;
    }
    if ("status" in reply)
      return json(
        res,
        reply.status,
        ollama ? { error: reply.error } : { error: { message: reply.error, type: "server_error", param: null, code: null } },
      );
    const model = typeof body.model === "string" ? body.model : "unknown";
    if (ollama) {
      // Ollama streams unless told not to (stream: false): one NDJSON line per token.
      if (body.stream !== false) {
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        res.end(
          `${JSON.stringify({ model, created_at: new Date().toISOString(), message: { role: "assistant", content: reply.content }, done: false })}\n${JSON.stringify({ model, created_at: new Date().toISOString(), message: { role: "assistant", content: "" }, done: true })}\n`,
        );
        return;
      }
      return json(res, 200, {
        model,
        created_at: "2024-07-22T20:33:28.123648Z",
        message: { role: "assistant", content: reply.content },
        done_reason: "stop",
        done: true,
        total_duration: 4883583458,
        load_duration: 1334875,
        ...(reply.usage
          ? { prompt_eval_count: reply.usage.input, prompt_eval_duration: 342546000, eval_count: reply.usage.output, eval_duration: 4535599000 }
          : {}),
      });
    }
    if (body.stream === true) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(
        `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model, choices: [{ index: 0, delta: { content: reply.content }, finish_reason: null }] })}\n\ndata: [DONE]\n\n`,
      );
      return;
    }
    return json(res, 200, {
      id: "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
      object: "chat.completion",
      created: 1741569952,
      model,
      choices: [
        { index: 0, message: { role: "assistant", content: reply.content, refusal: null, annotations: [] }, logprobs: null, finish_reason: "stop" },
      ],
      ...(reply.usage
        ? { usage: { prompt_tokens: reply.usage.input, completion_tokens: reply.usage.output, total_tokens: reply.usage.input + reply.usage.output } }
        : {}),
      service_tier: "default",
    });
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
