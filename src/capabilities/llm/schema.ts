import { z } from "zod";

/**
 * Model endpoints (hookbox.yaml `llm:`) that `hook.llm.complete` and prompt hooks may ask, and
 * the grants that name them (`permissions.llm`). Only the operator names an endpoint: there is
 * no default, local or cloud, so a hook asking a model where none is configured fails with the
 * YAML to add. An endpoint on another machine must say so (`allow_remote: true`): prompts carry
 * what the agent is doing.
 */

export const LLM_APIS = ["openai", "ollama", "anthropic"] as const;
export type LlmApi = (typeof LLM_APIS)[number];

export const ENDPOINT_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const endpointName = z.string().regex(ENDPOINT_NAME, "an endpoint name is 1–64 characters of a-z, 0-9, _ and -");

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected an environment variable name");

const whole = (min: number, max: number, unit: string) =>
  z
    .number({ error: `expected a whole number of ${unit}` })
    .int(`expected a whole number of ${unit}`)
    .min(min, `must be at least ${min} ${unit}`)
    .max(max, `must be at most ${max} ${unit}`);

/** The budgets a grant, an approval, a ceiling or an endpoint may set; each layer can only lower them. */
const budgetFields = {
  /** The most a call may ask the model to write (its `max_tokens`). */
  max_tokens: whole(1, 1_000_000, "tokens").optional(),
  /** Wall clock of one call, retries included. */
  timeout_ms: whole(100, 600_000, "ms").optional(),
  /** Prompt and answer tokens of every call of one run together. */
  tokens_per_run: whole(1, 100_000_000, "tokens").optional(),
  /** Prompt and answer tokens of one hook in one day (UTC), counted across runs and restarts. */
  tokens_per_day: whole(1, 1_000_000_000, "tokens").optional(),
};

export const BUDGET_KEYS = ["max_tokens", "timeout_ms", "tokens_per_run", "tokens_per_day"] as const;
export type BudgetKey = (typeof BUDGET_KEYS)[number];

/** What an endpoint allows when it says nothing: small answers, a minute, 200k tokens a day per hook. */
export const DEFAULT_BUDGET: Readonly<Record<BudgetKey, number>> = {
  max_tokens: 1024,
  timeout_ms: 60_000,
  tokens_per_run: 20_000,
  tokens_per_day: 200_000,
};

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export const llmEndpointSchema = z
  .object({
    /** The API's base URL: http://127.0.0.1:8080/v1 (llama.cpp, vLLM, LM Studio), http://127.0.0.1:11434 (Ollama), https://api.anthropic.com. */
    endpoint: z.string().max(2048),
    api: z.enum(LLM_APIS).default("openai"),
    model: z.string().min(1).max(256),
    /** The environment variable holding the API key (read by Hookbox, never shown to a hook). */
    api_key_env: envName.optional(),
    /** The API key itself, for a file only the operator can read; prefer api_key_env. */
    api_key: z.string().min(1).max(4096).optional(),
    /** The endpoint is on another machine: prompts (what the agent is doing) leave this one. */
    allow_remote: z.boolean().default(false),
    ...budgetFields,
  })
  .strict()
  .superRefine((endpoint, ctx) => {
    let url: URL;
    try {
      url = new URL(endpoint.endpoint);
    } catch {
      ctx.addIssue({ code: "custom", path: ["endpoint"], message: "expected a URL such as http://127.0.0.1:8080/v1" });
      return;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      ctx.addIssue({ code: "custom", path: ["endpoint"], message: "expected an http: or https: URL" });
    if (url.username || url.password) ctx.addIssue({ code: "custom", path: ["endpoint"], message: "put no credentials in the URL: use api_key_env" });
    if (!isLoopbackHost(url.hostname) && !endpoint.allow_remote) {
      ctx.addIssue({
        code: "custom",
        path: ["endpoint"],
        message: `${url.hostname} is not this machine: prompts would leave it; set allow_remote: true on this endpoint if that is intended`,
      });
    }
    if (endpoint.api_key !== undefined && endpoint.api_key_env !== undefined)
      ctx.addIssue({ code: "custom", path: ["api_key"], message: "give api_key_env or api_key, not both" });
  });

export type LlmEndpointConfig = z.output<typeof llmEndpointSchema>;

/**
 * `llm:` is one endpoint (named `default`) or endpoints by name. The single form is recognised by
 * its `endpoint` key.
 */
export const llmSettingsSchema = z.preprocess(
  (value) => (typeof value === "object" && value !== null && !Array.isArray(value) && "endpoint" in value ? { default: value } : value),
  z.record(endpointName, llmEndpointSchema),
);

export type LlmSettings = z.output<typeof llmSettingsSchema>;

/** A grant: an endpoint's name, or the name with lower budgets. */
export const llmGrantSchema = z.union([endpointName, z.object({ endpoint: endpointName, ...budgetFields }).strict()]);

export type LlmGrantConfig = z.output<typeof llmGrantSchema>;
