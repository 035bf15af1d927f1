// src/capabilities/llm owns hook.llm.complete, its grants, budgets and the llm: schema; it must not import above src/capabilities.
import type { Capability } from "../capability.ts";
import { completeMethod } from "./complete.ts";
import { parseLlmPolicy, type LlmPolicy } from "./policy.ts";

export { httpLlmClient, LlmCallError, type LlmClient, type ResolvedEndpoint } from "./client.ts";
export { llmVerdict, budgetFor, type LlmPolicy } from "./policy.ts";
export type { LlmCallRecord } from "./record.ts";
export { MemoryLlmUsage, type LlmUsageStore } from "./usage.ts";
export { FileLlmUsage, llmUsageFilePath } from "./usage-file.ts";
export type { CompletionReply, CompletionRequest } from "./wire.ts";

/**
 * `llm`: hook.llm.complete asks one of the operator's model endpoints (hookbox.yaml `llm:`) a
 * single-turn question, within the hook's budgets. A prompt hook asks through the same method.
 */
export const llmCapability: Capability<LlmPolicy> = {
  name: "llm",
  parse: (sources, _deps, _errors, warnings) => {
    const policy = parseLlmPolicy(sources, sources.llmEndpoints);
    for (const grant of policy.declared) {
      if (!Object.hasOwn(policy.endpoints, grant.endpoint)) {
        const known = Object.keys(policy.endpoints);
        const add =
          known.length === 0
            ? `; add one to hookbox.yaml, e.g. llm: { endpoint: "http://127.0.0.1:8080/v1", model: NAME } (docs/prompt-hooks.md)`
            : "";
        warnings.push(
          `${sources.file}: permissions.llm names the endpoint ${grant.endpoint}, which hookbox.yaml llm does not configure (${known.length === 0 ? "no endpoint is configured" : `it has ${known.join(", ")}`}): its model calls will fail${add}`,
        );
      }
    }
    return policy;
  },
  summary: (policy) => policy.declared.map((grant) => `llm ${grant.endpoint}`),
  contribute: (policy, scope) => {
    // Per invocation: tokens_per_run counts the calls of this run only.
    const tally = { spent: 0 };
    return { "llm.complete": completeMethod(policy, scope, tally) };
  },
};
