import { z } from "zod";
import type { HookResult } from "./types.ts";

const text = z.string().max(1_000_000);
const stringList = z.array(z.string().max(10_000)).max(1000);
const short = z.string().max(10_000);
const logLine = z.object({ level: z.enum(["debug", "info", "warn", "error"]), message: short }).strict();
const ability = z.object({ id: z.string().min(1).max(256), reason: short.optional(), confidence: z.number().min(0).max(1).optional() }).strict();
const document = z.object({ path: z.string().min(1).max(4096), reason: short.optional(), stage: z.string().max(64).optional() }).strict();
const intent = z
  .object({
    intent: short,
    scope: z.string().max(256).optional(),
    topic: z.string().max(256).optional(),
    stage: z.string().max(64).optional(),
    signals: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
/**
 * `{kind, payload}` as the template's types write it (§4.2); its own example (§3.3) writes the
 * payload's keys beside kind (`{kind: "open_file", path}`): those are folded into the payload.
 */
const followUp = z
  .object({ kind: z.string().min(1).max(64), payload: z.record(z.string(), z.unknown()).optional() })
  .catchall(z.unknown())
  .transform(({ kind, payload, ...rest }) => (Object.keys(rest).length > 0 || payload ? { kind, payload: { ...payload, ...rest } } : { kind }));

/** Strict: a typo in a result key (`acton: "deny"`) is an error, never a silent continue. */
export const hookResultSchema = z
  .object({
    action: z.enum(["continue", "deny", "modify", "inject_context", "ask_user"]).optional(),
    reason: text.optional(),
    data: z.record(z.string(), z.unknown()).optional(),
    tool_response: z.unknown().optional(),
    context_injection: text.optional(),
    context_injection_role: z.enum(["system", "user", "assistant"]).optional(),
    user_message: text.optional(),
    user_message_level: z.enum(["info", "warning", "error"]).optional(),
    suppress_output: z.boolean().optional(),
    approval_prompt: text.optional(),
    approval_options: stringList.optional(),
    approval_timeout_ms: z
      .number()
      .int()
      .min(1)
      .max(24 * 3600 * 1000)
      .optional(),
    approval_default: z.enum(["allow", "deny"]).optional(),
    continue: z.boolean().optional(),
    stop_reason: text.optional(),
    // The repository hooks template's shapes (seeds/000 §4.2) are accepted beside the plain ones.
    logs: z
      .array(z.union([short, logLine]))
      .max(1000)
      .optional(),
    messages_to_user: stringList.optional(),
    suggested_abilities: z
      .array(z.union([z.string().min(1).max(256), ability]))
      .max(100)
      .optional(),
    suggested_documents: z
      .array(z.union([z.string().min(1).max(4096), document]))
      .max(100)
      .optional(),
    new_intent: z.union([short, intent]).optional(),
    follow_up_actions: z.array(followUp).max(100).optional(),
    usage_recorded: z.unknown().optional(),
    /** The template's tracker: signals for better matchers, kept in the run record's notes. */
    update_matcher_suggestions: z
      .array(
        z
          .object({ ability_id: z.string().min(1).max(256), signal: z.string().min(1).max(256), weight: z.number().min(0).max(1).optional() })
          .passthrough(),
      )
      .max(100)
      .optional(),
    error: short.optional(),
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
