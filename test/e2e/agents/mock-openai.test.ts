// MockOpenAI speaks both wire formats the way OpenAI documents them, streamed and not: the same
// scripted turn read back from every form is the same tool call and text, and the request the
// client sends next is read back through one view. Runs without any agent CLI.
import { afterEach, describe, expect, it } from "vitest";
import { CUSTOM_INPUT, MockOpenAI, say, toolOutputs, useTool } from "./mock-openai.ts";

const mocks: MockOpenAI[] = [];
afterEach(async () => {
  for (const mock of mocks.splice(0)) await mock.close();
});

async function start(): Promise<string> {
  const mock = new MockOpenAI({
    script: [useTool("bash", { command: "ls" }, "call_1"), useTool("apply_patch", { [CUSTOM_INPUT]: "*** Begin Patch\n*** End Patch\n" }, "call_2")],
    after: () => say("done"),
  });
  mocks.push(mock);
  return mock.start();
}

const TOOLS = [{ type: "function", name: "bash" }];

async function post(origin: string, path: string, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${origin}/v1${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

/** SSE into [event name, data] pairs; `data: [DONE]` kept as the string. */
async function events(response: Response): Promise<Array<[string | undefined, unknown]>> {
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  return (await response.text())
    .split("\n\n")
    .filter(Boolean)
    .map((frame) => {
      const event = /^event: (.+)$/m.exec(frame)?.[1];
      const data = /^data: (.+)$/m.exec(frame)?.[1] ?? "";
      return [event, data === "[DONE]" ? data : JSON.parse(data)];
    });
}

describe("MockOpenAI's Responses API", () => {
  it("streams created → in_progress → item added/argument deltas/done → completed, each event naming its type, in sequence", async () => {
    const origin = await start();
    const stream = await events(await post(origin, "/responses", { model: "m", stream: true, input: "go", tools: TOOLS }));
    expect(stream.map(([event]) => event)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    stream.forEach(([event, data], index) => expect(data).toMatchObject({ type: event, sequence_number: index }));
    const completed = stream.at(-1)?.[1] as { response: { status: string; output: unknown[] } };
    expect(completed.response).toMatchObject({
      status: "completed",
      output: [{ type: "function_call", call_id: "call_1", name: "bash", arguments: '{"command":"ls"}' }],
    });
  });

  it("answers without stream with the same response object, and a custom tool call for free-form input", async () => {
    const origin = await start();
    await post(origin, "/responses", { model: "m", input: "go", tools: TOOLS });
    const response = (await (await post(origin, "/responses", { model: "m", input: "go", tools: TOOLS })).json()) as Record<string, unknown>;
    expect(response).toMatchObject({
      object: "response",
      status: "completed",
      output: [{ type: "custom_tool_call", call_id: "call_2", name: "apply_patch", input: "*** Begin Patch\n*** End Patch\n" }],
    });
  });

  it("reads tool results back from function_call_output and custom_tool_call_output items", () => {
    const input = [
      { type: "function_call_output", call_id: "a", output: "one" },
      { type: "custom_tool_call_output", call_id: "b", output: [{ type: "input_text", text: "two" }] },
    ];
    expect(toolOutputs({ api: "responses", body: { input } })).toEqual([
      { callId: "a", text: "one" },
      { callId: "b", text: "two" },
    ]);
  });
});

describe("MockOpenAI's Chat Completions API", () => {
  it("streams the role, each tool call whole, the finish reason, usage when asked, and [DONE]", async () => {
    const origin = await start();
    const stream = await events(
      await post(origin, "/chat/completions", {
        model: "m",
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: "user", content: "go" }],
        tools: [{ type: "function", function: { name: "bash" } }],
      }),
    );
    const chunks = stream.map(([, data]) => data) as Array<
      { object?: string; choices?: Array<{ delta: Record<string, unknown>; finish_reason: string | null }>; usage?: unknown } | string
    >;
    expect(chunks.at(-1)).toBe("[DONE]");
    const objects = chunks.slice(0, -1) as Array<Exclude<(typeof chunks)[number], string>>;
    expect(objects.every((chunk) => chunk.object === "chat.completion.chunk")).toBe(true);
    expect(objects[0]?.choices?.[0]?.delta).toEqual({ role: "assistant", content: "" });
    expect(objects[1]?.choices?.[0]?.delta).toEqual({
      tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }],
    });
    expect(objects[2]?.choices?.[0]).toMatchObject({ delta: {}, finish_reason: "tool_calls" });
    expect(objects[3]).toMatchObject({ choices: [], usage: { total_tokens: 20 } });
  });

  it("answers without stream with one chat.completion, and text with finish_reason stop once the script is done", async () => {
    const origin = await start();
    const tools = [{ type: "function", function: { name: "bash" } }];
    for (let i = 0; i < 2; i++) await post(origin, "/chat/completions", { model: "m", messages: [], tools });
    const completion = (await (await post(origin, "/chat/completions", { model: "m", messages: [], tools })).json()) as Record<string, unknown>;
    expect(completion).toMatchObject({
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: "done" }, finish_reason: "stop" }],
    });
  });

  it("reads tool results back from role: tool messages", () => {
    expect(toolOutputs({ api: "chat", body: { messages: [{ role: "tool", tool_call_id: "c", content: "out" }] } })).toEqual([
      { callId: "c", text: "out" },
    ]);
  });
});
