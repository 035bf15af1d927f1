/**
 * `{{…}}` placeholders, as the seed engine reads them: `{{event}}` (the event as JSON),
 * `{{event.a.b}}` (one field), `{{step_N}}` (step N's primary output: stdout, content, body or
 * diff, else its result as JSON) and `{{step_N.field}}`. A placeholder that names nothing known
 * — another word, a step that does not exist — is left as written; a known step's missing field
 * is empty. Strings are inserted as they are, numbers and booleans as text, anything else as JSON.
 */
export interface TemplateScope {
  readonly event: Readonly<Record<string, unknown>>;
  /** Results of the steps run so far (a step's inputs see the ones before it). */
  readonly steps: readonly Readonly<Record<string, unknown>>[];
}

const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;
const PATH = /^(event|step_(\d{1,3}))((?:\.[A-Za-z0-9_-]+){0,16})$/;
/** The fields `{{step_N}}` stands for, in the seed's order. */
const PRIMARY = ["stdout", "content", "body", "diff"] as const;

export function render(template: string, scope: TemplateScope): string {
  return template.replace(PLACEHOLDER, (whole, expression: string) => {
    const value = resolve(expression, scope);
    return value === UNKNOWN ? whole : text(value);
  });
}

const UNKNOWN = Symbol("unknown placeholder");

function resolve(expression: string, scope: TemplateScope): unknown {
  const match = PATH.exec(expression);
  if (!match) return UNKNOWN;
  const fields = (match[3] as string).split(".").slice(1);
  let value: unknown;
  if (match[1] === "event") {
    value = scope.event;
  } else {
    const step = scope.steps[Number(match[2])];
    if (step === undefined) return UNKNOWN;
    if (fields.length === 0) {
      const primary = PRIMARY.find((field) => typeof step[field] === "string");
      return primary ? step[primary] : step;
    }
    value = step;
  }
  for (const field of fields) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, field)) return "";
    value = (value as Record<string, unknown>)[field];
  }
  return value;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}
