import { HookboxError } from "../../../core/errors.ts";
import { describeValue } from "../../../core/events/describe.ts";
import { MAX_EVENT_DEPTH, jsonDepth } from "../../../core/events/parse.ts";

/** An agent's stdin JSON once known to be a plain object of bounded depth. */
export type Payload = Readonly<Record<string, unknown>>;

/** Identifiers are short; a megabyte "session id" is an attack or a bug, not an id. Same bounds as src/core/events/parse.ts. */
export const MAX_ID_CHARS = 512;
export const MAX_PATH_CHARS = 4096;

export function invalid(message: string, field?: string): HookboxError {
  return new HookboxError("event_invalid", message, field === undefined ? undefined : { field });
}

/** What a payload value is, for messages — never by converting it (see src/core/events/describe.ts). */
export { describeValue };

/** The payload as an object, refusing anything else and anything nested deeper than native events may be. */
export function readPayload(payload: unknown, dialect: string): Payload {
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
    throw invalid(`the ${dialect} hook payload must be a JSON object, got ${describeValue(payload)}`);
  }
  if (jsonDepth(payload, MAX_EVENT_DEPTH + 1) > MAX_EVENT_DEPTH) {
    throw invalid(`the ${dialect} hook payload is nested deeper than ${MAX_EVENT_DEPTH} levels`);
  }
  return payload as Payload;
}

export function optionalString(payload: Payload, field: string, maxChars = Number.POSITIVE_INFINITY): string | undefined {
  const value = payload[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw invalid(`${field}: expected a string, got ${describeValue(value)}`, field);
  if (value.length > maxChars) throw invalid(`${field}: longer than ${maxChars} characters (${value.length})`, field);
  return value;
}

export function optionalBoolean(payload: Payload, field: string): boolean | undefined {
  const value = payload[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw invalid(`${field}: expected true or false, got ${describeValue(value)}`, field);
  return value;
}

export function optionalRecord(payload: Payload, field: string): Record<string, unknown> | undefined {
  const value = payload[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw invalid(`${field}: expected an object, got ${describeValue(value)}`, field);
  return value as Record<string, unknown>;
}

/** An object, or a JSON string holding one (Cursor's MCP `tool_input`, Copilot's `toolArgs`). */
export function objectOrJsonObject(payload: Payload, field: string): Record<string, unknown> | undefined {
  const value = payload[field];
  if (typeof value !== "string") return optionalRecord(payload, field);
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw invalid(`${field}: expected an object or a JSON-encoded object, got a string that is not JSON`, field);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw invalid(`${field}: expected an object or a JSON-encoded object, got JSON holding ${describeValue(parsed)}`, field);
  }
  return parsed as Record<string, unknown>;
}

/** The fields not consumed by the decoder, copied without letting a "__proto__" key reach a prototype. */
export function remainingFields(
  payload: Payload,
  consumed: readonly string[],
  renameKey: (key: string) => string = (key) => key,
): Record<string, unknown> {
  const skip = new Set(consumed);
  return Object.fromEntries(
    Object.entries(payload)
      .filter(([key]) => !skip.has(key))
      .map(([key, value]) => [renameKey(key), value]),
  );
}

/** sessionId → session_id, toolArgs → tool_args, transcriptPath → transcript_path. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}
