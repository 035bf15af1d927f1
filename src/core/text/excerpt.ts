import { looksSecret } from "./secrets.ts";

/**
 * What of an event or a step's results goes into an audit record: secrets replaced — values of
 * environment-style names that look secret by the rules the env capability applies too
 * (secrets.ts: GITHUB_TOKEN, AWS_*, *_PASSWORD …), whether a key or a `NAME=value` inside a
 * string, and values of keys such as token, password or authorization — then cut to fit a size:
 * long strings are shortened first, and what still does not fit is left out with its size. The
 * log stays readable and bounded whatever an agent sends. In core because the audit, triggered
 * runs and hook.llm.complete's record all redact by it.
 */
export const REDACTED = "[redacted]";

export type Excerpt = unknown;

/**
 * Shorter and shorter strings, then fewer and fewer items of each list, until the JSON fits (a
 * file's content in a tool call is never worth more than a glimpse; a folder event's 200 changes
 * are summed up by their first few and its count).
 */
const CUTS: readonly { readonly chars: number; readonly items: number }[] = [
  { chars: 1024, items: Number.POSITIVE_INFINITY },
  { chars: 256, items: Number.POSITIVE_INFINITY },
  { chars: 256, items: 50 },
  { chars: 64, items: 10 },
  { chars: 16, items: 3 },
];

export function excerpt(value: unknown, maxBytes: number): Excerpt {
  const clean = redact(value, 0);
  for (const cut of CUTS) {
    const shortened = shorten(clean, cut.chars, cut.items);
    const bytes = utf8Bytes(JSON.stringify(shortened) ?? "null");
    if (bytes <= maxBytes) return shortened;
  }
  return { omitted: true, bytes: utf8Bytes(JSON.stringify(clean) ?? "null"), reason: `larger than ${maxBytes} bytes even with every string cut` };
}

const MAX_DEPTH = 32;

const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;
/** Lower-case keys that name a secret (looksSecret is written for environment names: it would take session_id for one). */
const SECRET_KEY =
  /^(token|access_token|refresh_token|id_token|api_?key|password|passwd|secret|client_secret|authorization|cookie|private_key|credentials?)$/i;
const ASSIGNMENT = /\b([A-Z][A-Z0-9_]{1,63})=("[^"]*"|'[^']*'|\S+)/g;

function secretKey(key: string): boolean {
  return ENV_NAME.test(key) ? looksSecret(key) : SECRET_KEY.test(key);
}

function redact(value: unknown, depth: number): unknown {
  if (typeof value === "string")
    return value.includes("=") ? value.replace(ASSIGNMENT, (whole, name: string) => (looksSecret(name) ? `${name}=${REDACTED}` : whole)) : value;
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_DEPTH) return "[nested too deep]";
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>))
    out[key] = secretKey(key) && item !== null && item !== "" ? REDACTED : redact(item, depth + 1);
  return out;
}

function shorten(value: unknown, limit: number, items: number): unknown {
  if (typeof value === "string") return value.length > limit ? `${value.slice(0, limit)}…[${value.length - limit} more characters]` : value;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const kept = value.slice(0, items).map((item) => shorten(item, limit, items));
    return value.length > items ? [...kept, `…[${value.length - items} more items]`] : kept;
  }
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, shorten(item, limit, items)]));
}

function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

/** `sha256:<hex>` of the event as JSON: the same event, the same digest, whatever was cut from the excerpt. */
export async function eventDigest(event: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(event));
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `sha256:${Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * Token shapes that are secrets wherever they appear: API keys (sk-…, sk-ant-…), GitHub, GitLab,
 * Slack and AWS tokens, bearer credentials, private key blocks.
 */
const SECRET_SHAPES = [
  /\bsk-(?:ant-)?[A-Za-z0-9_-]{16,}/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{12,}/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
];

/**
 * Free text (a prompt sent to a model, its answer) as the audit keeps it: the given secret values
 * (an endpoint's key, the environment's secret variables), `NAME=value` of secret-looking names
 * and known token shapes replaced by [redacted].
 */
export function redactText(text: string, secretValues: readonly string[] = []): string {
  let out = text;
  for (const value of secretValues) if (value.length >= 8) out = out.split(value).join(REDACTED);
  out = redact(out, 0) as string;
  for (const shape of SECRET_SHAPES)
    out = out.replace(shape, (whole, scheme?: string) =>
      typeof scheme === "string" && /^(Bearer|Basic)$/.test(scheme) ? `${scheme} ${REDACTED}` : REDACTED,
    );
  return out;
}
