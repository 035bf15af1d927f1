import { z } from "zod";
import { HookboxError } from "../errors.ts";
import { checkEventName } from "./names.ts";
import type { HookResult, NativeEvent } from "./types.ts";

/** Deeper JSON than this is refused: recursive walkers (path extraction, matchers) stay bounded. */
export const MAX_EVENT_DEPTH = 64;

const eventSchema = z
  .object({
    event_type: z.string().min(1),
    session_id: z.string().max(512).default("unknown"),
    timestamp: z.string().max(64).optional(),
    cwd: z.string().min(1).max(4096).refine((p) => p.startsWith("/"), "must be an absolute path").optional(),
    tool_name: z.string().max(512).optional(),
    tool_input: z.record(z.string(), z.unknown()).optional(),
    tool_use_id: z.string().max(512).optional(),
    prompt: z.string().optional(),
    stop_hook_active: z.boolean().optional(),
    agent: z.string().max(64).optional(),
  })
  .passthrough();

/** Validate an event body; `eventTypeFromPath` (POST /v1/events/:type) fills or must equal event_type. */
export function parseEvent(body: unknown, eventTypeFromPath?: string, now: () => Date = () => new Date()): NativeEvent {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new HookboxError("event_invalid", "the event must be a JSON object");
  }
  const depth = jsonDepth(body, MAX_EVENT_DEPTH + 1);
  if (depth > MAX_EVENT_DEPTH) throw new HookboxError("event_invalid", `the event is nested deeper than ${MAX_EVENT_DEPTH} levels`);
  const record = body as Record<string, unknown>;
  let eventType = record.event_type;
  if (eventTypeFromPath !== undefined) {
    const fromPath = checkEventName(eventTypeFromPath);
    if (!fromPath.ok) throw new HookboxError("event_invalid", fromPath.message, { field: "event_type" });
    if (eventType !== undefined) {
      const fromBody = typeof eventType === "string" ? checkEventName(eventType) : undefined;
      if (!fromBody?.ok || fromBody.name !== fromPath.name) {
        throw new HookboxError("event_invalid", `event_type in the body (${String(eventType)}) differs from the URL (${eventTypeFromPath})`, { field: "event_type" });
      }
    }
    eventType = fromPath.name;
  }
  const parsed = eventSchema.safeParse({ ...record, event_type: eventType });
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as z.core.$ZodIssue;
    const field = issue.path.join(".") || "event";
    throw new HookboxError("event_invalid", `${field}: ${issue.message}`, { field });
  }
  const name = checkEventName(parsed.data.event_type);
  if (!name.ok) throw new HookboxError("event_invalid", name.message, { field: "event_type" });
  return { ...parsed.data, event_type: name.name, timestamp: parsed.data.timestamp ?? now().toISOString() } as NativeEvent;
}

/** Depth of a JSON value, stopping early once `limit` is reached. */
export function jsonDepth(value: unknown, limit: number): number {
  if (value === null || typeof value !== "object") return 0;
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (depth > max) max = depth;
    if (max >= limit) return max;
    if (current && typeof current === "object") {
      for (const child of Object.values(current as Record<string, unknown>)) {
        if (child && typeof child === "object") stack.push([child, depth + 1]);
      }
    }
  }
  return max;
}

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
