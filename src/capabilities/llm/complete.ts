import { redactText } from "../../core/text/excerpt.ts";
import { looksSecret } from "../../core/text/secrets.ts";
import { arity, optionsArg, stringArg } from "../args.ts";
import type { CallContext, InvocationScope } from "../capability.ts";
import { deniedByVerdict, renderCall } from "../denied.ts";
import { CapabilityError, failed, invalidArgument } from "../errors.ts";
import { answerCheck, type AnswerCheck } from "./answer-schema.ts";
import { LlmCallError, type ResolvedEndpoint } from "./client.ts";
import { budgetFor, defaultEndpoint, llmVerdict, type Budget, type LlmPolicy } from "./policy.ts";
import type { LlmCallRecord } from "./record.ts";
import { utcDay } from "./usage.ts";
import type { CompletionReply, CompletionRequest } from "./wire.ts";

const MAX_PROMPT_CHARS = 200_000;
const MAX_SYSTEM_CHARS = 20_000;
/** What the audit keeps of a prompt, a system prompt and an answer (characters). */
const RECORD_CHARS = 16_000;

/** The answer of hook.llm.complete. */
export interface Completion {
  readonly text: string;
  /** The answer parsed and checked against json_schema (only with one). */
  readonly json?: unknown;
  readonly endpoint: string;
  readonly model: string;
  readonly tokens: { readonly input: number; readonly output: number };
  /** 2 when the first answer did not match json_schema and the model was asked again. */
  readonly attempts: number;
}

/** Tokens of a text the server did not count: about four characters each (as the seed engine estimates). */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/** The tokens this invocation has spent so far, for tokens_per_run. */
export interface RunTally {
  spent: number;
}

/**
 * hook.llm.complete({system, prompt, max_tokens, json_schema, endpoint}) → Completion. The
 * endpoint (named, or the hook's first grant) must be granted and configured; the call fits the
 * budgets (max_tokens, timeout_ms, tokens_per_run, tokens_per_day) or is refused before anything
 * is sent. With json_schema the answer must be JSON matching it: one malformed answer is asked
 * again (saying what was wrong), a second fails the call (code invalid_answer) and so, unless
 * the handler catches it, the hook (its on_error). Every call is in the run record's `llm`.
 */
export function completeMethod(policy: LlmPolicy, scope: InvocationScope, tally: RunTally) {
  return async (args: readonly unknown[], call: CallContext): Promise<Completion> => {
    arity("llm.complete", args, 1);
    const options = optionsArg("llm.complete", args[0], ["system", "prompt", "max_tokens", "json_schema", "endpoint"]);
    const prompt = stringArg("llm.complete", "prompt", options.prompt, MAX_PROMPT_CHARS);
    const system =
      options.system === undefined || options.system === null
        ? ""
        : stringArg("llm.complete", "system", options.system, MAX_SYSTEM_CHARS, { allowEmpty: true });
    const name =
      options.endpoint === undefined || options.endpoint === null
        ? defaultEndpoint(policy)
        : stringArg("llm.complete", "endpoint", options.endpoint, 64);
    const requested = options.max_tokens;
    if (requested !== undefined && requested !== null && (typeof requested !== "number" || !Number.isInteger(requested) || requested < 1))
      throw invalidArgument("hook.llm.complete: max_tokens must be a whole number of tokens, at least 1");
    const check = options.json_schema === undefined || options.json_schema === null ? undefined : answerCheck(options.json_schema);
    if (typeof check === "string") throw invalidArgument(`hook.llm.complete: ${check}`);
    const shown = renderCall("llm.complete", [{ endpoint: name ?? "(none)" }]);
    call.target = name ? `llm ${name}` : "llm";

    if (name === undefined)
      throw deniedByVerdict(scope.hookId, shown, { ok: false, by: "declared", operator: undefined }, { kind: "llm", yaml: "[default]" });
    const verdict = llmVerdict(policy, name);
    if (!verdict.ok) throw deniedByVerdict(scope.hookId, shown, verdict, { kind: "llm", yaml: `[${name}]` });
    const config = Object.hasOwn(policy.endpoints, name) ? policy.endpoints[name] : undefined;
    if (!config) throw failed("not_configured", noEndpoint(name, policy));
    const endpoint: ResolvedEndpoint = {
      name,
      api: config.api,
      url: config.endpoint,
      apiKey: config.api_key ?? (config.api_key_env ? scope.deps.env[config.api_key_env] : undefined),
    };
    if (config.api_key_env && !endpoint.apiKey)
      throw failed(
        "not_configured",
        `model endpoint ${name}: the environment variable ${config.api_key_env} (hookbox.yaml llm api_key_env) is not set in Hookbox's environment`,
      );
    const budget = budgetFor(policy, name);
    const maxTokens = Math.min(typeof requested === "number" ? requested : budget.max_tokens, budget.max_tokens);

    const secrets = secretValues(scope.deps.env, endpoint.apiKey);
    const record: Omit<LlmCallRecord, "outcome" | "tokens" | "attempts" | "duration_ms"> = {
      endpoint: name,
      api: config.api,
      model: config.model,
      max_tokens: maxTokens,
      json_schema: check !== undefined,
      system: cut(redactText(system, secrets)),
      prompt: cut(redactText(prompt, secrets)),
    };
    const started = performance.now();
    const tokens = { input: 0, output: 0, estimated: false };
    let attempts = 0;
    let answer: string | undefined;
    const finish = (outcome: LlmCallRecord["outcome"], error?: string): void => {
      scope.llmCalls.push({
        ...record,
        outcome,
        ...(answer !== undefined ? { answer: cut(redactText(answer, secrets)) } : {}),
        ...(error !== undefined ? { error } : {}),
        tokens,
        attempts,
        duration_ms: Math.round(performance.now() - started),
      });
    };

    try {
      const deadline = performance.now() + budget.timeout_ms;
      let userPrompt = prompt;
      for (;;) {
        attempts++;
        await withinBudget(scope, budget, tally, maxTokens + estimateTokens(system + userPrompt));
        const remaining = Math.floor(deadline - performance.now());
        if (remaining <= 0) throw failed("timeout", `hook.llm.complete: ${name} gave no usable answer within timeout_ms (${budget.timeout_ms} ms)`);
        const reply = await ask(
          scope,
          endpoint,
          {
            model: config.model,
            system: systemWith(system, options.json_schema),
            prompt: userPrompt,
            maxTokens,
            jsonSchema: check ? (options.json_schema as Record<string, unknown>) : undefined,
          },
          remaining,
          call.signal,
        );
        answer = reply.text;
        const spent = spend(tokens, reply, system + userPrompt);
        tally.spent += spent;
        await scope.llm.usage.add(scope.hookId, utcDay(Date.now()), spent);
        const result = validate(check, reply.text);
        if (result.ok) {
          finish("answered");
          return {
            text: reply.text,
            ...(check ? { json: result.value } : {}),
            endpoint: name,
            model: config.model,
            tokens: { input: tokens.input, output: tokens.output },
            attempts,
          };
        }
        if (attempts >= 2)
          throw failed("invalid_answer", `hook.llm.complete: ${name} answered twice without matching json_schema; ${result.problem}`);
        // One more chance, saying what was wrong, within what is left of the budgets.
        userPrompt = `${prompt}\n\nYour previous answer was rejected: ${result.problem}. Answer again with only the JSON object, nothing else.`;
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      finish(error instanceof CapabilityError && error.code === "invalid_answer" ? "invalid" : "failed", message);
      throw error;
    }
  };
}

async function ask(
  scope: InvocationScope,
  endpoint: ResolvedEndpoint,
  request: CompletionRequest,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<CompletionReply> {
  try {
    return await scope.llm.client.complete(endpoint, request, { timeoutMs, signal });
  } catch (error) {
    if (error instanceof LlmCallError) throw failed(error.kind === "timeout" ? "timeout" : "llm_failed", `hook.llm.complete: ${error.message}`);
    throw error;
  }
}

/** Refused before sending when the call could take the run or the day past its budget. */
async function withinBudget(scope: InvocationScope, budget: Budget, tally: RunTally, mayTake: number): Promise<void> {
  if (tally.spent + mayTake > budget.tokens_per_run) {
    throw failed(
      "budget_exceeded",
      `hook.llm.complete: this call could take the run to ${tally.spent + mayTake} tokens (${tally.spent} spent, up to ${mayTake} more), over tokens_per_run (${budget.tokens_per_run}); ask for fewer max_tokens or a shorter prompt`,
    );
  }
  const today = await scope.llm.usage.spent(scope.hookId, utcDay(Date.now()));
  if (today + mayTake > budget.tokens_per_day) {
    throw failed(
      "budget_exceeded",
      `hook.llm.complete: hook ${scope.hookId} has spent ${today} tokens today (UTC); this call could take it over tokens_per_day (${budget.tokens_per_day})`,
    );
  }
}

function spend(tokens: { input: number; output: number; estimated: boolean }, reply: CompletionReply, sent: string): number {
  const input = reply.inputTokens ?? estimateTokens(sent);
  const output = reply.outputTokens ?? estimateTokens(reply.text);
  if (reply.inputTokens === undefined || reply.outputTokens === undefined) tokens.estimated = true;
  tokens.input += input;
  tokens.output += output;
  return input + output;
}

function validate(check: AnswerCheck | undefined, text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  return check ? check(text) : { ok: true, value: undefined };
}

/** With a schema the model is told, whatever its API can enforce: the answer is JSON and nothing else. */
function systemWith(system: string, schema: unknown): string {
  if (schema === undefined || schema === null) return system;
  const rule = `Answer with one JSON object matching this JSON Schema, and nothing else (no prose, no code fence):\n${JSON.stringify(schema)}`;
  return system ? `${system}\n\n${rule}` : rule;
}

/** Values worth hiding from the audit: the endpoint's key and the environment's secrets (by their names). */
function secretValues(env: Readonly<Record<string, string | undefined>>, apiKey: string | undefined): string[] {
  const values = Object.entries(env)
    .filter(([key, value]) => value !== undefined && value.length >= 8 && looksSecret(key))
    .map(([, value]) => value as string);
  return apiKey ? [apiKey, ...values] : values;
}

function cut(text: string): string {
  return text.length > RECORD_CHARS ? `${text.slice(0, RECORD_CHARS)}…[${text.length - RECORD_CHARS} more characters]` : text;
}

function noEndpoint(name: string, policy: LlmPolicy): string {
  const names = Object.keys(policy.endpoints);
  if (names.length === 0) {
    return `hook.llm.complete: no model endpoint is configured, and Hookbox calls none by default; the operator adds one to hookbox.yaml:  llm: { endpoint: "http://127.0.0.1:8080/v1", api: openai, model: NAME }  (Ollama: endpoint http://127.0.0.1:11434, api: ollama)`;
  }
  return `hook.llm.complete: hookbox.yaml llm has no endpoint named ${name} (it has ${names.join(", ")}); the operator adds it, or the hook's permissions.llm names one of those`;
}
