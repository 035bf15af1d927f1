import type { PromptAnswer } from "../../hooks/config/resolve.ts";
import type { HostCall } from "./run.ts";
import { render, type TemplateScope } from "./template.ts";

/** A prompt hook: the template sent to the model and how its answer becomes the hook's result. */
export interface PromptSpec extends PromptAnswer {
  readonly template: string;
}

const DECISION_SCHEMA = {
  type: "object",
  properties: { decision: { type: "string", enum: ["allow", "deny", "ask"] }, reason: { type: "string" } },
  required: ["decision"],
};

const OK_SCHEMA = {
  type: "object",
  properties: { ok: { type: "boolean" }, reason: { type: "string" } },
  required: ["ok"],
};

const SYSTEM = {
  decision:
    'You are a hook that decides one step of an AI coding agent (a tool call, a prompt, a stop). Follow the instructions in the request and answer with one JSON object: {"decision": "allow" | "deny" | "ask", "reason": "…"}. "deny" when the instructions say it must not go ahead, "ask" when a person should decide, "allow" otherwise. The reason, one or two sentences, is shown to the agent and the user; give one with deny and ask.',
  ok: 'You are a hook that checks one step of an AI coding agent. Follow the instructions in the request and answer with one JSON object: {"ok": true} when the condition is met, or {"ok": false, "reason": "…"} when it is not, the reason saying what is wrong or missing, for the agent to act on.',
} as const;

export type PromptOutcome =
  | { readonly kind: "result"; readonly result: Record<string, unknown> }
  | { readonly kind: "failed"; readonly code: string; readonly message: string };

/**
 * Ask the model through the hook's own `llm.complete` (its grant, budgets and audit), with the
 * answer's JSON Schema, and turn its answer into the hook's result. A call that fails — no
 * endpoint, a timeout, a budget, an answer that twice did not fit — fails the hook: its
 * on_error decides.
 */
export async function askPrompt(spec: PromptSpec, scope: TemplateScope, call: HostCall, signal: AbortSignal): Promise<PromptOutcome> {
  const prompt = render(spec.template, scope);
  let reply: { json?: unknown };
  try {
    reply = (await call(
      "llm.complete",
      [{ system: spec.system ?? SYSTEM[spec.format], prompt, json_schema: spec.format === "ok" ? OK_SCHEMA : DECISION_SCHEMA }],
      signal,
    )) as { json?: unknown };
  } catch (error) {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    return {
      kind: "failed",
      code: code === "capability_denied" ? "capability_denied" : "llm_failed",
      message: typeof message === "string" ? message : String(error),
    };
  }
  const answer = (reply.json ?? {}) as { decision?: string; ok?: boolean; reason?: string };
  const reason = typeof answer.reason === "string" && answer.reason.trim() !== "" ? answer.reason.trim() : undefined;
  const verdict = spec.format === "ok" ? (answer.ok ? "allow" : "deny") : (answer.decision as "allow" | "deny" | "ask");
  if (verdict === "allow") return { kind: "result", result: { action: "continue", ...(reason ? { reason } : {}) } };
  if (verdict === "ask") return { kind: "result", result: { action: "ask_user", reason: reason ?? "the model asks for a person's decision" } };
  const said = reason ?? "the model said no, without a reason";
  if (spec.onDeny === "inject_context") return { kind: "result", result: { action: "inject_context", context_injection: said } };
  return { kind: "result", result: { action: spec.onDeny, reason: said } };
}
