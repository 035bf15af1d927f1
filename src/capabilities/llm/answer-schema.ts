import { z } from "zod";

/** A schema is a hook's text: kept small and shallow, and without regexes (a backtracking pattern run on the host). */
const MAX_SCHEMA_BYTES = 64 * 1024;
const MAX_DEPTH = 32;
const REFUSED_KEYWORDS = new Set(["pattern", "patternProperties"]);

export type AnswerCheck = (text: string) => { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: string };

/**
 * A check of the model's answer against the hook's JSON Schema (zod reads the schema), or a
 * string saying why the schema cannot be used. The answer must be JSON (a ```json fence around
 * it is taken off: small models add one whatever they are told).
 */
export function answerCheck(schema: unknown): AnswerCheck | string {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return "json_schema must be an object (a JSON Schema)";
  const text = JSON.stringify(schema);
  if (text.length > MAX_SCHEMA_BYTES) return `json_schema is larger than ${MAX_SCHEMA_BYTES} bytes`;
  const refused = refusedKeyword(schema, 0);
  if (refused) return refused;
  let validator: z.ZodType;
  try {
    validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    return `json_schema cannot be used: ${(error as Error).message}`;
  }
  return (answer) => {
    let value: unknown;
    try {
      value = JSON.parse(stripFence(answer));
    } catch {
      return { ok: false, problem: `the answer is not JSON: ${JSON.stringify(answer.slice(0, 200))}` };
    }
    const parsed = validator.safeParse(value);
    if (parsed.success) return { ok: true, value: parsed.data };
    const issues = parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.length ? issue.path.join(".") : "(the answer)"}: ${issue.message}`);
    return { ok: false, problem: `the answer does not match json_schema: ${issues.join("; ")}` };
  };
}

/** Under these keys the keys are names (a property called "pattern"), not keywords. */
const NAME_MAPS = new Set(["properties", "$defs", "definitions", "dependentSchemas"]);

function refusedKeyword(value: unknown, depth: number, names = false): string | undefined {
  if (depth > MAX_DEPTH) return `json_schema is nested deeper than ${MAX_DEPTH} levels`;
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (!names && REFUSED_KEYWORDS.has(key) && !Array.isArray(value))
      return `json_schema: ${key} is not supported (regular expressions from a hook do not run on the host); use enum or check the value in the handler`;
    const found = refusedKeyword(item, depth + 1, !names && !Array.isArray(value) && NAME_MAPS.has(key));
    if (found) return found;
  }
  return undefined;
}

function stripFence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/.exec(text);
  return (fenced ? (fenced[1] as string) : text).trim();
}
