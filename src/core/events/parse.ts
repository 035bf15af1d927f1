import { HookboxError } from "../errors.ts";
import { describeValue, quoted } from "./describe.ts";
import { checkEventName } from "./names.ts";
import type { NativeEvent } from "./types.ts";

/** Deeper JSON than this is refused: recursive walkers (path extraction, matchers) stay bounded. */
export const MAX_EVENT_DEPTH = 64;

type FieldCheck = (value: unknown) => string | undefined;

const string =
  (max: number): FieldCheck =>
  (v) =>
    typeof v !== "string"
      ? `expected a string, found ${describeValue(v)}`
      : v.length > max
        ? `too long (${v.length} characters; at most ${max})`
        : undefined;
const STRING_FIELDS: Readonly<Record<string, FieldCheck>> = {
  session_id: string(512),
  timestamp: string(64),
  tool_name: string(512),
  tool_use_id: string(512),
  prompt: (v) => (typeof v !== "string" ? `expected a string, found ${describeValue(v)}` : undefined),
  agent: string(64),
};

/**
 * Validate an event body; `eventTypeFromPath` (POST /v1/events/:type) fills or must equal
 * event_type. Hand-written rather than a schema library: it runs on every event, and on the
 * path of every `hookbox emit`, where loading a validation library costs more than the check.
 */
export function parseEvent(body: unknown, eventTypeFromPath?: string, now: () => Date = () => new Date()): NativeEvent {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new HookboxError("event_invalid", "the event must be a JSON object");
  }
  if (jsonDepth(body, MAX_EVENT_DEPTH + 1) > MAX_EVENT_DEPTH)
    throw new HookboxError("event_invalid", `the event is nested deeper than ${MAX_EVENT_DEPTH} levels`);
  const record = body as Record<string, unknown>;
  let eventType = record.event_type;
  if (eventTypeFromPath !== undefined) {
    const fromPath = checkEventName(eventTypeFromPath);
    if (!fromPath.ok) throw invalid("event_type", fromPath.message);
    if (eventType !== undefined) {
      // Never String(eventType): the body is untrusted, and {"toString": 1} makes String() throw.
      if (typeof eventType !== "string") throw invalid("event_type", `expected a string, found ${describeValue(eventType)}`);
      const fromBody = checkEventName(eventType);
      if (!fromBody.ok || fromBody.name !== fromPath.name)
        throw invalid("event_type", `event_type in the body (${quoted(eventType)}) differs from the URL (${quoted(fromPath.name)})`);
    }
    eventType = fromPath.name;
  }
  if (typeof eventType !== "string" || eventType === "")
    throw invalid(
      "event_type",
      eventType === undefined ? "missing" : eventType === "" ? "empty" : `expected a string, found ${describeValue(eventType)}`,
    );
  const name = checkEventName(eventType);
  if (!name.ok) throw invalid("event_type", name.message);
  for (const [field, check] of Object.entries(STRING_FIELDS)) {
    if (record[field] === undefined) continue;
    const problem = check(record[field]);
    if (problem) throw invalid(field, problem);
  }
  const cwd = record.cwd;
  if (cwd !== undefined && (typeof cwd !== "string" || cwd.length === 0 || cwd.length > 4096 || !cwd.startsWith("/"))) {
    throw invalid("cwd", typeof cwd !== "string" ? `expected a string, found ${describeValue(cwd)}` : "must be an absolute path");
  }
  const toolInput = record.tool_input;
  if (toolInput !== undefined && (toolInput === null || typeof toolInput !== "object" || Array.isArray(toolInput))) {
    throw invalid("tool_input", `expected an object, found ${describeValue(toolInput)}`);
  }
  if (record.stop_hook_active !== undefined && typeof record.stop_hook_active !== "boolean") {
    throw invalid("stop_hook_active", `expected a boolean, found ${describeValue(record.stop_hook_active)}`);
  }
  return {
    ...record,
    event_type: name.name,
    session_id: (record.session_id as string | undefined) ?? "unknown",
    timestamp: (record.timestamp as string | undefined) ?? now().toISOString(),
  } as NativeEvent;
}

function invalid(field: string, message: string): HookboxError {
  return new HookboxError("event_invalid", `${field}: ${message}`, { field });
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
