// post-tool-schema-nudge: when a tool call came back with an input-validation error, tell the
// model what the tool expects (its parameters and a valid example) before it tries again.
// Models that get only "InputValidationError" tend to retry the same call; a hint with the
// expected shape fixes it in one step. Ordinary failures (a command that exited 1, a file that
// does not exist) and successes get nothing: the nudge must stay rare to stay useful.

type Obj = Record<string, unknown>;

interface ToolHint {
  /** Agents whose tool_input has this shape: argument names differ between agents. */
  readonly agents: readonly string[];
  /** [name, type, required, what] */
  readonly params: readonly (readonly [string, string, boolean, string])[];
  readonly example: unknown;
}

/** A failed call found in the event: which tool, what it was given, what the error said. */
interface FailedCall {
  readonly tool: string;
  readonly agentTool: string | undefined;
  readonly input: unknown;
  readonly error: string;
}

const CLAUDE = ["claude", "native"];

/** Claude Code's tools (2.1.x argument names); the same shapes tool-schema-guardrail checks. */
const DEFAULT_HINTS: Readonly<Record<string, ToolHint>> = {
  Bash: {
    agents: CLAUDE,
    params: [
      ["command", "string", true, "the command line to run"],
      ["description", "string", false, "what it does, in a few words"],
      ["timeout", "number", false, "milliseconds, at most 600000"],
      ["run_in_background", "boolean", false, ""],
    ],
    example: { command: "npm test", description: "Run the test suite" },
  },
  Write: {
    agents: CLAUDE,
    params: [
      ["file_path", "string", true, "absolute path of the file"],
      ["content", "string", true, "the whole new content"],
    ],
    example: { file_path: "/home/user/project/src/greet.ts", content: "export const greet = () => 'hi';\n" },
  },
  Edit: {
    agents: CLAUDE,
    params: [
      ["file_path", "string", true, "absolute path of the file"],
      ["old_string", "string", true, "exact text that is in the file now"],
      ["new_string", "string", true, "the replacement, different from old_string"],
      ["replace_all", "boolean", false, "replace every occurrence"],
    ],
    example: { file_path: "/home/user/project/src/greet.ts", old_string: "'hi'", new_string: "'hello'" },
  },
  MultiEdit: {
    agents: CLAUDE,
    params: [
      ["file_path", "string", true, "absolute path of the file"],
      ["edits", "array of {old_string, new_string, replace_all?}", true, "at least one edit, applied in order"],
    ],
    example: { file_path: "/home/user/project/src/greet.ts", edits: [{ old_string: "'hi'", new_string: "'hello'" }] },
  },
  Read: {
    agents: CLAUDE,
    params: [
      ["file_path", "string", true, "absolute path of the file"],
      ["offset", "number", false, "first line to read"],
      ["limit", "number", false, "number of lines"],
    ],
    example: { file_path: "/home/user/project/README.md" },
  },
  NotebookEdit: {
    agents: CLAUDE,
    params: [
      ["notebook_path", "string", true, "absolute path of the .ipynb file"],
      ["new_source", "string", false, "the cell's new source"],
      ["cell_id", "string", false, ""],
      ["cell_type", '"code" | "markdown"', false, ""],
      ["edit_mode", '"replace" | "insert" | "delete"', false, ""],
    ],
    example: { notebook_path: "/home/user/project/analysis.ipynb", cell_id: "cell-1", new_source: "print('hi')" },
  },
  Glob: {
    agents: CLAUDE,
    params: [
      ["pattern", "string", true, "a glob such as src/**/*.ts"],
      ["path", "string", false, "directory to search"],
    ],
    example: { pattern: "src/**/*.ts" },
  },
  Grep: {
    agents: CLAUDE,
    params: [
      ["pattern", "string", true, "a regular expression"],
      ["path", "string", false, ""],
      ["glob", "string", false, ""],
      ["output_mode", '"content" | "files_with_matches" | "count"', false, ""],
    ],
    example: { pattern: "TODO", path: "src", output_mode: "content" },
  },
  WebFetch: {
    agents: CLAUDE,
    params: [
      ["url", "string", true, "an http(s) URL"],
      ["prompt", "string", true, "what to extract from the page"],
    ],
    example: { url: "https://example.com/docs", prompt: "List the configuration options" },
  },
  WebSearch: {
    agents: CLAUDE,
    params: [
      ["query", "string", true, ""],
      ["allowed_domains", "array of string", false, ""],
    ],
    example: { query: "vitest snapshot update flag" },
  },
};

/** Used when config.patterns is absent or holds nothing valid. */
const DEFAULT_PATTERNS = [
  "InputValidationError",
  "failed due to the following issues?",
  "required (parameter|property|argument|field)",
  "missing required",
  "invalid (input|parameters?|arguments?)\\b",
  "unexpected (parameter|property|argument|field)",
  "unrecognized (key|parameter|property)",
  "must NOT have additional properties",
  "expected (string|number|boolean|object|array|integer), received",
  "invalid_type",
];

/** A failing command's own output (Claude reports it as "Exit code N\n…"): never a schema problem. */
const COMMAND_FAILURE = /^\s*Exit code -?\d+/;
const MAX_CALLS = 20;
const MAX_HINTS = 3;

export default function handler(event: HookEvent, hook: Hook): HookResult {
  const config: Readonly<Obj> = isObj(hook.config) ? hook.config : {};
  const patterns = compilePatterns(config.patterns, hook);
  const agent = typeof event.agent === "string" && event.agent ? event.agent : "native";

  const failed = failedCalls(event).filter((call) => {
    const text = call.error.replace(/<\/?tool_use_error>/g, "");
    return !COMMAND_FAILURE.test(text) && patterns.some((pattern) => pattern.test(text));
  });
  if (failed.length === 0) return { action: "continue" };

  // One hint per tool, however many of its calls failed in a batch.
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const call of failed) {
    const name = call.agentTool ?? call.tool;
    if (seen.has(name) || parts.length >= MAX_HINTS) continue;
    seen.add(name);
    const hint = hintFor(config, call, agent);
    if (hint === undefined) continue;
    parts.push(hint);
  }
  if (parts.length === 0) {
    hook.log("info", `validation error from ${failed.map((c) => c.tool).join(", ")}, but no hint is known and generic_hint is off`);
    return { action: "continue" };
  }
  hook.log("info", `nudged ${[...seen].join(", ")}`);
  return { action: "inject_context", context_injection: cap(parts.join("\n\n"), 6000) };
}

/**
 * The calls whose result is an error, from the native tool events (PostToolUse,
 * PostToolUseFailure: `error`, or an error-shaped tool_response) and from Claude Code's
 * PostToolBatch (`tool_calls`), where input-validation errors show up: Claude rejects a
 * malformed input before its per-tool hooks run.
 */
function failedCalls(event: HookEvent): FailedCall[] {
  if (Array.isArray(event.tool_calls)) {
    const calls: FailedCall[] = [];
    for (const item of event.tool_calls.slice(0, MAX_CALLS)) {
      if (!isObj(item) || typeof item.tool_name !== "string") continue;
      const error = errorText(item.tool_response, item.error);
      if (error !== undefined) calls.push({ tool: item.tool_name, agentTool: undefined, input: item.tool_input, error });
    }
    return calls;
  }
  if (typeof event.tool_name !== "string") return [];
  const error = errorText(event.tool_response, event.error);
  if (error === undefined) return [];
  const agentTool = typeof event.agent_tool_name === "string" && event.agent_tool_name !== event.tool_name ? event.agent_tool_name : undefined;
  return [{ tool: event.tool_name, agentTool, input: event.tool_input, error }];
}

/**
 * The error a tool reported, from the error channels only: a command's stdout that happens to say
 * "Invalid input" is the program talking, not the tool refusing its arguments.
 */
function errorText(response: unknown, error: unknown): string | undefined {
  const texts: string[] = [];
  if (typeof error === "string") texts.push(error);
  else if (isObj(error) && typeof error.message === "string") texts.push(error.message);
  if (typeof response === "string") {
    if (response.includes("<tool_use_error>")) texts.push(response);
  } else if (isObj(response)) {
    if (typeof response.error === "string") texts.push(response.error);
    else if (isObj(response.error) && typeof response.error.message === "string") texts.push(response.error.message);
    if (response.is_error === true || response.isError === true) texts.push(contentText(response.content));
  }
  // Gemini's failure has the same message in both `error` and tool_response.error: say it once.
  const text = [...new Set(texts.filter((t) => t.trim() !== ""))].join("\n");
  return text === "" ? undefined : text.slice(0, 4000);
}

/** MCP-style content: a string or [{type: "text", text}]. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .slice(0, 10)
    .map((part) => (isObj(part) && typeof part.text === "string" ? part.text : ""))
    .join("\n");
}

function hintFor(config: Readonly<Obj>, call: FailedCall, agent: string): string | undefined {
  const name = call.agentTool ?? call.tool;
  const keys = call.agentTool ? [call.agentTool, call.tool] : [call.tool];
  const hints = isObj(config.hints) ? config.hints : {};
  const schemas = isObj(config.schemas) ? config.schemas : {};
  let expected: string | undefined;
  for (const key of keys) {
    // The operator's own words first, then a schema shared with tool-schema-guardrail, then ours.
    const text = hints[key];
    if (typeof text === "string" && text.trim() !== "") {
      expected = cap(text.trim(), 2000);
      break;
    }
    const schema = schemas[key];
    if (isObj(schema) && appliesTo(schema.agents, agent)) {
      expected = fromSchema(name, schema);
      break;
    }
    const builtIn = config.default_schemas !== false && Object.prototype.hasOwnProperty.call(DEFAULT_HINTS, key) ? DEFAULT_HINTS[key] : undefined;
    if (builtIn && appliesTo(builtIn.agents, agent)) {
      expected = fromHint(name, builtIn);
      break;
    }
  }
  if (expected === undefined && config.generic_hint === false) return undefined;
  const lines = [
    `Your last ${name} call was rejected because its input did not match the tool's parameters.`,
    `The error: ${oneLine(call.error, 400)}`,
  ];
  const sent = keysOf(call.input);
  if (sent !== undefined) lines.push(`You sent: ${sent}.`);
  lines.push(expected ?? `Re-read ${name}'s parameter schema: use exactly its parameter names and types, with every required one present.`);
  lines.push(`Fix the input and call ${name} again; do not repeat the same input.`);
  return lines.join("\n");
}

function fromHint(name: string, hint: ToolHint): string {
  const params = hint.params.map(([param, type, required, what]) => `${param} (${type}${required ? ", required" : ""})${what ? ` — ${what}` : ""}`);
  return `${name} expects: ${params.join("; ")}.\nA valid input: ${JSON.stringify(hint.example)}`;
}

/** The same schema subset tool-schema-guardrail reads: properties, required, enum, type, description, example. */
function fromSchema(name: string, schema: Obj): string {
  const properties = isObj(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === "string") : []);
  const params = Object.entries(properties)
    .slice(0, 15)
    .map(([param, raw]) => {
      const p = isObj(raw) ? raw : {};
      const type = Array.isArray(p.enum)
        ? p.enum.map((v) => JSON.stringify(v)).join(" | ")
        : Array.isArray(p.type)
          ? p.type.join(" | ")
          : typeof p.type === "string"
            ? p.type
            : "any";
      const what = typeof p.description === "string" ? ` — ${p.description}` : "";
      return `${param} (${type}${required.has(param) ? ", required" : ""})${what}`;
    });
  const lines = [
    `${name} expects: ${params.length > 0 ? params.join("; ") : "an object"}${schema.additionalProperties === false ? "; no other properties" : ""}.`,
  ];
  if (schema.example !== undefined) lines.push(`A valid input: ${cap(JSON.stringify(schema.example), 800)}`);
  return lines.join("\n");
}

function compilePatterns(configured: unknown, hook: Hook): RegExp[] {
  const sources = Array.isArray(configured) ? configured.filter((p): p is string => typeof p === "string") : DEFAULT_PATTERNS;
  const compiled: RegExp[] = [];
  for (const source of sources.slice(0, 100)) {
    try {
      compiled.push(new RegExp(source, "i"));
    } catch (error) {
      hook.log("error", `config.patterns: ${JSON.stringify(source)} is not a valid regular expression (${String(error)}); skipped`);
    }
  }
  return compiled;
}

function appliesTo(agents: unknown, agent: string): boolean {
  return !Array.isArray(agents) || agents.some((name) => name === agent || name === "*");
}

/** "{file_path, text}": the argument names the model used, which is usually where it went wrong. */
function keysOf(input: unknown): string | undefined {
  if (!isObj(input)) return input === undefined ? undefined : `a ${Array.isArray(input) ? "list" : typeof input} instead of an object`;
  const keys = Object.keys(input)
    .slice(0, 12)
    .map((k) => oneLine(k, 40));
  return keys.length === 0 ? "no arguments at all" : `{${keys.join(", ")}}`;
}

function oneLine(text: string, max: number): string {
  const flat = text
    .replace(/<\/?tool_use_error>/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function cap(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function isObj(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
