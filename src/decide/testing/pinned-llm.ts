import { LlmCallError, type LlmClient } from "../../capabilities/llm/index.ts";
import type { Fixture } from "./fixture.ts";

/**
 * The model of a fixture: each call gets the next pinned reply (an answer, or an error the
 * endpoint would give), so a prompt hook is tested against recorded answers with no model
 * running. A call past the pinned replies fails, saying so (`repeatLast`: the last one answers it).
 */
export function pinnedLlm(
  replies: NonNullable<Fixture["llm"]>,
  options: { readonly repeatLast?: boolean } = {},
): LlmClient & { readonly calls: number } {
  let next = 0;
  return {
    get calls() {
      return next;
    },
    async complete(endpoint) {
      // A replay (--llm-replies) asks as often as its sessions did: the last reply answers every call past the list.
      const reply = replies[options.repeatLast ? Math.min(next++, replies.length - 1) : next++];
      if (reply === undefined)
        throw new LlmCallError(
          "http",
          `${endpoint.name}: the fixture pins ${replies.length} model ${replies.length === 1 ? "reply" : "replies"} and the hook asked for another`,
        );
      if ("error" in reply)
        throw new LlmCallError(
          reply.error === "timeout" ? "timeout" : "http",
          `${endpoint.name}: ${reply.error === "timeout" ? "no complete answer within the time (a pinned timeout)" : reply.error}`,
        );
      const text = typeof reply.answer === "string" ? reply.answer : JSON.stringify(reply.answer);
      return { text, inputTokens: reply.tokens?.input, outputTokens: reply.tokens?.output, stop: "stop" };
    },
  };
}
