import { z } from "zod";
import type { HookResult } from "./types.ts";

const text = z.string().max(1_000_000);
const stringList = z.array(z.string().max(10_000)).max(1000);

/** Strict: a typo in a result key (`acton: "deny"`) is an error, never a silent continue. */
export const hookResultSchema = z
  .object({
    action: z.enum(["continue", "deny", "modify", "inject_context", "ask_user"]).optional(),
    reason: text.optional(),
    data: z.record(z.string(), z.unknown()).optional(),
    context_injection: text.optional(),
    context_injection_role: z.enum(["system", "user", "assistant"]).optional(),
    user_message: text.optional(),
    user_message_level: z.enum(["info", "warning", "error"]).optional(),
    suppress_output: z.boolean().optional(),
    approval_prompt: text.optional(),
    approval_options: stringList.optional(),
    approval_timeout_ms: z.number().int().min(1).max(24 * 3600 * 1000).optional(),
    approval_default: z.enum(["allow", "deny"]).optional(),
    continue: z.boolean().optional(),
    stop_reason: text.optional(),
    logs: stringList.optional(),
    messages_to_user: stringList.optional(),
    suggested_abilities: stringList.optional(),
    suggested_documents: stringList.optional(),
    new_intent: text.optional(),
    follow_up_actions: z.array(z.unknown()).max(1000).optional(),
    usage_recorded: z.unknown().optional(),
  })
  .strict();

export type ResultCheck = { readonly ok: true; readonly result: HookResult } | { readonly ok: false; readonly message: string };

/** Validate what a handler returned; `undefined` (no return) is `continue`. */
export function parseHookResult(value: unknown): ResultCheck {
  if (value === undefined || value === null) return { ok: true, result: {} };
  const parsed = hookResultSchema.safeParse(value);
  if (parsed.success) return { ok: true, result: parsed.data as HookResult };
  const messages = parsed.error.issues.slice(0, 5).map((issue) => {
    if (issue.code === "unrecognized_keys") return `unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
    const field = issue.path.join(".");
    return field ? `${field}: ${issue.message}` : issue.message;
  });
  return { ok: false, message: `the handler returned an invalid result: ${messages.join("; ")}` };
}
