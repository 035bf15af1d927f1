import type { Payload } from "./payload.ts";
import { describeValue, invalid } from "./payload.ts";

/** An agent's timestamp as ISO-8601: Gemini and Copilot's VS Code mode send ISO strings, Copilot's camelCase mode epoch milliseconds. */
export function timestampField(payload: Payload, field: string): string | undefined {
  const value = payload[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") {
    if (value.length > 64 || !Number.isFinite(Date.parse(value))) throw invalid(`${field}: "${value.slice(0, 64)}" is not an ISO-8601 time`, field);
    return value;
  }
  if (typeof value === "number") {
    const time = new Date(value);
    if (!Number.isFinite(time.getTime())) throw invalid(`${field}: ${value} is not a time in epoch milliseconds`, field);
    return time.toISOString();
  }
  throw invalid(`${field}: expected an ISO-8601 string or epoch milliseconds, got ${describeValue(value)}`, field);
}
