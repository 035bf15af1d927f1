// tool-schema-guardrail: validate a tool call's input against a declared schema before it runs,
// and deny a malformed call with what is wrong and an example of a valid input, so the model can
// fix the call in one step instead of guessing (seed 001).
//
// The schema language is a small JSON-Schema subset, implemented here because a handler is one
// file: type, required, properties, additionalProperties, enum, const, pattern, minLength,
// maxLength, minimum, maximum, exclusiveMinimum, exclusiveMaximum, items, minItems, maxItems,
// plus three extensions: format ("absolute-path", "uri"), distinct (property names that must
// not all be equal) and, at the top level, example (shown in the denial) and agents (which
// agents' tool inputs have this shape).

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = Record<string, unknown>;

/** One JSON type name of the subset. */
type TypeName = "string" | "number" | "integer" | "boolean" | "object" | "array" | "null";

interface Problem {
  readonly path: string;
  readonly message: string;
}

/** Deeper than this, a schema or an input is not walked further (hostile nesting costs nothing). */
const MAX_DEPTH = 12;
/** Items of one array checked against `items`: an input with 100k items must stay cheap. */
const MAX_ITEMS_CHECKED = 200;
const TYPE_NAMES: readonly TypeName[] = ["string", "number", "integer", "boolean", "object", "array", "null"];

/**
 * Built-in schemas for Claude Code's tools (2.1.x argument names). Only what the tool really
 * requires is required and no default sets additionalProperties: false, so an input with the
 * optional fields an agent adds (description, timeout, replace_all …) always passes. `agents`
 * keeps each default to the agents whose tool_input has that shape: tool names are normalised
 * across agents, argument names are not (Copilot's Write has `path`, Codex's Edit is a patch).
 */
const DEFAULT_SCHEMAS: Readonly<Record<string, Obj>> = {
  Bash: {
    agents: ["claude", "native", "gemini"],
    type: "object",
    required: ["command"],
    properties: {
      command: { type: "string", minLength: 1, description: "the command line to run" },
      description: { type: "string", description: "what the command does, in a few words" },
      timeout: { type: "number", minimum: 0, maximum: 600000, description: "milliseconds, at most 600000" },
      run_in_background: { type: "boolean" },
    },
    example: { command: "npm test", description: "Run the test suite" },
  },
  Write: {
    agents: ["claude", "native"],
    type: "object",
    required: ["file_path", "content"],
    properties: {
      file_path: { type: "string", format: "absolute-path", description: "the absolute path of the file to write" },
      content: { type: "string", description: "the whole new content of the file" },
    },
    example: { file_path: "/home/user/project/src/greet.ts", content: "export const greet = (name: string) => `Hello, ${name}`;\n" },
  },
  Edit: {
    agents: ["claude", "native"],
    type: "object",
    required: ["file_path", "old_string", "new_string"],
    distinct: ["old_string", "new_string"],
    properties: {
      file_path: { type: "string", format: "absolute-path", description: "the absolute path of the file to edit" },
      old_string: { type: "string", description: "the exact text to replace" },
      new_string: { type: "string", description: "the text to put instead (different from old_string)" },
      replace_all: { type: "boolean", description: "replace every occurrence (default false)" },
    },
    example: { file_path: "/home/user/project/src/greet.ts", old_string: "Hello", new_string: "Hi" },
  },
  MultiEdit: {
    agents: ["claude", "native"],
    type: "object",
    required: ["file_path", "edits"],
    properties: {
      file_path: { type: "string", format: "absolute-path", description: "the absolute path of the file to edit" },
      edits: {
        type: "array",
        minItems: 1,
        description: "the edits, applied in order",
        items: {
          type: "object",
          required: ["old_string", "new_string"],
          distinct: ["old_string", "new_string"],
          properties: { old_string: { type: "string" }, new_string: { type: "string" }, replace_all: { type: "boolean" } },
        },
      },
    },
    example: { file_path: "/home/user/project/src/greet.ts", edits: [{ old_string: "Hello", new_string: "Hi" }] },
  },
  Read: {
    agents: ["claude", "native"],
    type: "object",
    required: ["file_path"],
    properties: {
      file_path: { type: "string", format: "absolute-path", description: "the absolute path of the file to read" },
      offset: { type: "number", minimum: 0, description: "the line to start at" },
      limit: { type: "number", minimum: 1, description: "how many lines to read" },
    },
    example: { file_path: "/home/user/project/README.md" },
  },
  NotebookEdit: {
    agents: ["claude", "native"],
    type: "object",
    required: ["notebook_path"],
    properties: {
      notebook_path: { type: "string", format: "absolute-path", description: "the absolute path of the .ipynb file" },
      new_source: { type: "string" },
      cell_id: { type: "string" },
      cell_type: { enum: ["code", "markdown"] },
      edit_mode: { enum: ["replace", "insert", "delete"] },
    },
    example: { notebook_path: "/home/user/project/analysis.ipynb", cell_id: "cell-1", new_source: "print('hi')" },
  },
  Glob: {
    agents: ["claude", "native"],
    type: "object",
    required: ["pattern"],
    properties: { pattern: { type: "string", minLength: 1, description: "a glob such as src/**/*.ts" }, path: { type: "string" } },
    example: { pattern: "src/**/*.ts" },
  },
  Grep: {
    agents: ["claude", "native"],
    type: "object",
    required: ["pattern"],
    properties: {
      pattern: { type: "string", minLength: 1, description: "a regular expression" },
      path: { type: "string" },
      glob: { type: "string" },
      output_mode: { enum: ["content", "files_with_matches", "count"] },
      head_limit: { type: "number", minimum: 0 },
    },
    example: { pattern: "TODO", path: "src", output_mode: "content" },
  },
  WebFetch: {
    agents: ["claude", "native"],
    type: "object",
    required: ["url", "prompt"],
    properties: {
      url: { type: "string", format: "uri", description: "an http(s) URL" },
      prompt: { type: "string", minLength: 1, description: "what to extract from the page" },
    },
    example: { url: "https://example.com/docs", prompt: "List the configuration options" },
  },
  WebSearch: {
    agents: ["claude", "native"],
    type: "object",
    required: ["query"],
    properties: {
      query: { type: "string", minLength: 2 },
      allowed_domains: { type: "array", items: { type: "string" } },
      blocked_domains: { type: "array", items: { type: "string" } },
    },
    example: { query: "vitest snapshot update flag" },
  },
  Agent: {
    agents: ["claude", "native"],
    type: "object",
    required: ["description", "prompt"],
    properties: { description: { type: "string", minLength: 1 }, prompt: { type: "string", minLength: 1 }, subagent_type: { type: "string" } },
    example: {
      description: "Find the config loader",
      prompt: "Find where the YAML config is loaded and summarise it.",
      subagent_type: "general-purpose",
    },
  },
};

export default function handler(event: HookEvent, hook: Hook): HookResult {
  const toolName = typeof event.tool_name === "string" ? event.tool_name : "";
  if (!toolName) return { action: "continue" };
  const agentToolName = typeof event.agent_tool_name === "string" ? event.agent_tool_name : undefined;
  const agent = typeof event.agent === "string" && event.agent ? event.agent : "native";

  // hook.config is always an object under the dispatcher; `hookbox run` passes none.
  const config: Readonly<Obj> = isObj(hook.config) ? hook.config : {};
  const found = schemaFor(config, toolName, agentToolName, agent);
  if (!found) return { action: "continue" };
  const { schema, key } = found;

  const maxErrors = intIn(config.max_errors, 5, 1, 20);
  const checker = new Checker(hook, event.cwd);
  // tool_input is an object for native events; anything else is checked as-is, so a string or
  // an array where an object belongs is reported, not thrown on.
  const input: unknown = event.tool_input === undefined ? {} : event.tool_input;
  checker.check(input, schema, "", 0);
  if (checker.problems.length === 0) return { action: "continue" };

  const shown = agentToolName ?? toolName;
  const lines = checker.problems.slice(0, maxErrors).map((p) => `- ${p.path || "input"}: ${p.message}`);
  if (checker.problems.length > maxErrors) lines.push(`- … and ${checker.problems.length - maxErrors} more`);
  const expected = describeSchema(schema);
  const example = exampleOf(schema);
  const reason = [
    `The ${shown} call was not run: its input does not match the ${key} schema (tool-schema-guardrail).`,
    ...lines,
    expected ? `${shown} expects: ${expected}.` : "",
    `Fix the input and call ${shown} again. A valid input looks like: ${example}`,
  ]
    .filter((line) => line !== "")
    .join("\n");
  return { action: "deny", reason };
}

/**
 * The schema for this call: one keyed by the agent's own tool name wins (an operator can write
 * one for Gemini's write_file), then one keyed by the native name. Operator schemas apply to
 * every agent unless they list `agents`; `false` or null turns a built-in one off.
 */
function schemaFor(
  config: Readonly<Obj>,
  toolName: string,
  agentToolName: string | undefined,
  agent: string,
): { schema: Obj; key: string } | undefined {
  const configured = isObj(config.schemas) ? config.schemas : {};
  const useDefaults = config.default_schemas !== false;
  for (const key of agentToolName && agentToolName !== toolName ? [agentToolName, toolName] : [toolName]) {
    if (Object.prototype.hasOwnProperty.call(configured, key)) {
      const schema = configured[key];
      if (!isObj(schema)) return undefined;
      return appliesTo(schema, agent) ? { schema, key } : undefined;
    }
    const builtIn = useDefaults && Object.prototype.hasOwnProperty.call(DEFAULT_SCHEMAS, key) ? DEFAULT_SCHEMAS[key] : undefined;
    if (builtIn && appliesTo(builtIn, agent)) return { schema: builtIn, key };
  }
  return undefined;
}

function appliesTo(schema: Obj, agent: string): boolean {
  if (!Array.isArray(schema.agents)) return true;
  return schema.agents.some((name) => name === agent || name === "*");
}

/** Walks an input against a schema, collecting problems; compiled patterns are cached per call. */
class Checker {
  readonly problems: Problem[] = [];
  private readonly patterns = new Map<string, RegExp | null>();
  private readonly hook: Hook;
  private readonly cwd: string | undefined;

  constructor(hook: Hook, cwd: string | undefined) {
    this.hook = hook;
    this.cwd = cwd;
  }

  check(value: unknown, schema: unknown, path: string, depth: number): void {
    if (!isObj(schema) || depth > MAX_DEPTH || this.problems.length >= 50) return;
    const types = typeList(schema.type);
    if (types.length > 0 && !types.some((type) => hasType(value, type))) {
      this.add(path, `expected ${types.map(article).join(" or ")}, got ${kindOf(value)}`);
      return;
    }
    if (Array.isArray(schema.enum) && !schema.enum.some((option) => sameJson(option, value))) {
      this.add(path, `must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(", ")}; got ${show(value)}`);
    }
    if (schema.const !== undefined && !sameJson(schema.const, value)) this.add(path, `must be ${JSON.stringify(schema.const)}; got ${show(value)}`);
    if (typeof value === "string") this.checkString(value, schema, path);
    else if (typeof value === "number") this.checkNumber(value, schema, path);
    else if (Array.isArray(value)) this.checkArray(value, schema, path, depth);
    else if (isObj(value)) this.checkObject(value, schema, path, depth);
  }

  private checkString(value: string, schema: Obj, path: string): void {
    const what = typeof schema.description === "string" ? ` (${schema.description})` : "";
    if (typeof schema.minLength === "number" && value.length < schema.minLength) {
      this.add(path, value.length === 0 ? `must not be empty${what}` : `must be at least ${schema.minLength} characters; got ${value.length}`);
    }
    if (typeof schema.maxLength === "number" && value.length > schema.maxLength)
      this.add(path, `must be at most ${schema.maxLength} characters; got ${value.length}`);
    if (typeof schema.pattern === "string") {
      const pattern = this.compile(schema.pattern, path);
      if (pattern && !pattern.test(value)) this.add(path, `${show(value)} does not match the pattern ${schema.pattern}${what}`);
    }
    if (schema.format === "absolute-path" && !value.startsWith("/")) {
      // The most common slip (a path relative to the project): say which absolute path was meant.
      const relative = value.replace(/^\.\//, "");
      const guess =
        this.cwd && value && !value.startsWith("~") && !/^[A-Za-z]:[\\/]/.test(value)
          ? `; did you mean ${JSON.stringify(`${this.cwd.replace(/\/+$/, "")}/${relative}`)}?`
          : "";
      this.add(path, `must be an absolute path (starting with /); got ${show(value)}${guess}`);
    }
    if (schema.format === "uri" && !/^https?:\/\/[^\s/]+/i.test(value)) this.add(path, `must be an http:// or https:// URL; got ${show(value)}`);
  }

  private checkNumber(value: number, schema: Obj, path: string): void {
    if (typeof schema.minimum === "number" && value < schema.minimum) this.add(path, `must be at least ${schema.minimum}; got ${value}`);
    if (typeof schema.maximum === "number" && value > schema.maximum) this.add(path, `must be at most ${schema.maximum}; got ${value}`);
    if (typeof schema.exclusiveMinimum === "number" && value <= schema.exclusiveMinimum)
      this.add(path, `must be greater than ${schema.exclusiveMinimum}; got ${value}`);
    if (typeof schema.exclusiveMaximum === "number" && value >= schema.exclusiveMaximum)
      this.add(path, `must be less than ${schema.exclusiveMaximum}; got ${value}`);
  }

  private checkArray(value: readonly unknown[], schema: Obj, path: string, depth: number): void {
    if (typeof schema.minItems === "number" && value.length < schema.minItems) {
      this.add(path, value.length === 0 ? "must not be empty" : `must have at least ${schema.minItems} items; got ${value.length}`);
    }
    if (typeof schema.maxItems === "number" && value.length > schema.maxItems)
      this.add(path, `must have at most ${schema.maxItems} items; got ${value.length}`);
    if (isObj(schema.items)) {
      const count = Math.min(value.length, MAX_ITEMS_CHECKED);
      for (let i = 0; i < count; i++) this.check(value[i], schema.items, `${path}[${i}]`, depth + 1);
    }
  }

  private checkObject(value: Obj, schema: Obj, path: string, depth: number): void {
    const properties = isObj(schema.properties) ? schema.properties : {};
    const join = (key: string): string => (path ? `${path}.${key}` : key);
    if (Array.isArray(schema.required)) {
      for (const key of schema.required) {
        if (typeof key !== "string" || (Object.prototype.hasOwnProperty.call(value, key) && value[key] !== undefined)) continue;
        const property = properties[key];
        const type = isObj(property) ? typeList(property.type).join(" or ") : "";
        const what = isObj(property) && typeof property.description === "string" ? `: ${property.description}` : "";
        this.add(join(key), `is required${type ? ` (${type})` : ""}${what}`);
      }
    }
    const keys = Object.keys(value);
    for (const key of keys.slice(0, MAX_ITEMS_CHECKED)) {
      if (Object.prototype.hasOwnProperty.call(properties, key)) {
        this.check(value[key], properties[key], join(key), depth + 1);
      } else if (schema.additionalProperties === false) {
        const allowed = Object.keys(properties);
        this.add(join(key), `is not a known property${allowed.length ? ` (allowed: ${allowed.join(", ")})` : ""}`);
      } else if (isObj(schema.additionalProperties)) {
        this.check(value[key], schema.additionalProperties, join(key), depth + 1);
      }
    }
    if (Array.isArray(schema.distinct)) {
      const names = schema.distinct.filter((name): name is string => typeof name === "string");
      const values = names.map((name) => value[name]);
      if (names.length >= 2 && values.every((v) => v !== undefined) && values.every((v) => sameJson(v, values[0]))) {
        this.add(path, `${names.join(" and ")} are identical, so the call would change nothing; make ${names[names.length - 1]} the new text`);
      }
    }
  }

  private compile(source: string, path: string): RegExp | null {
    const cached = this.patterns.get(source);
    if (cached !== undefined) return cached;
    let compiled: RegExp | null = null;
    try {
      compiled = new RegExp(source, "u");
    } catch (error) {
      // A broken pattern is the operator's mistake: say so in the run record and skip the
      // keyword, rather than deny every call the schema covers.
      this.hook.log(
        "error",
        `config: the pattern ${JSON.stringify(source)} at ${path || "input"} is not a valid regular expression (${String(error)}); it was not checked`,
      );
    }
    this.patterns.set(source, compiled);
    return compiled;
  }

  private add(path: string, message: string): void {
    this.problems.push({ path, message });
  }
}

function typeList(type: unknown): TypeName[] {
  const list = Array.isArray(type) ? type : type === undefined ? [] : [type];
  return list.filter((t): t is TypeName => typeof t === "string" && (TYPE_NAMES as readonly string[]).includes(t));
}

function hasType(value: unknown, type: TypeName): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isObj(value);
  }
}

/** One line: "file_path (string, required) — the absolute path …; content (string, required)". */
function describeSchema(schema: Obj): string {
  if (!isObj(schema.properties)) return "";
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === "string") : []);
  const parts = Object.entries(schema.properties)
    .slice(0, 12)
    .map(([name, property]) => {
      const p = isObj(property) ? property : {};
      const type = Array.isArray(p.enum) ? p.enum.map((v) => JSON.stringify(v)).join("|") : typeList(p.type).join("|") || "any";
      const what = typeof p.description === "string" ? ` — ${p.description}` : "";
      return `${name} (${type}${required.has(name) ? ", required" : ""})${what}`;
    });
  return parts.join("; ");
}

/** The schema's own example, else one built from its required properties. */
function exampleOf(schema: Obj): string {
  const example = schema.example !== undefined ? (schema.example as Json) : synthesize(schema, 0);
  const text = JSON.stringify(example);
  return text.length > 800 ? `${text.slice(0, 800)}…` : text;
}

function synthesize(schema: unknown, depth: number): Json {
  if (!isObj(schema) || depth > 4) return null;
  if (schema.example !== undefined) return schema.example as Json;
  if (schema.const !== undefined) return schema.const as Json;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] as Json;
  const type = typeList(schema.type)[0] ?? (isObj(schema.properties) ? "object" : undefined);
  switch (type) {
    case "string":
      return schema.format === "absolute-path" ? "/absolute/path/to/file" : schema.format === "uri" ? "https://example.com/" : "…";
    case "number":
    case "integer":
      return typeof schema.minimum === "number" ? schema.minimum : 0;
    case "boolean":
      return false;
    case "null":
      return null;
    case "array":
      return typeof schema.minItems === "number" && schema.minItems > 0 ? [synthesize(schema.items, depth + 1)] : [];
    case "object": {
      const out: { [key: string]: Json } = {};
      const properties = isObj(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required : [];
      for (const key of required) if (typeof key === "string") out[key] = synthesize(properties[key], depth + 1);
      return out;
    }
    default:
      return "…";
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

function isObj(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number" && Number.isInteger(value)) return `the number ${value}`;
  if (typeof value === "string") return `the string ${show(value)}`;
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function article(type: string): string {
  return type === "null" ? "null" : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** A value as JSON, cut short: inputs can be megabytes and hold anything. */
function show(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}…"` : text;
}

function intIn(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === "number" && Number.isInteger(value) ? Math.min(max, Math.max(min, value)) : fallback;
}
