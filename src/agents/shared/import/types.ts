import type { ImportAgent } from "../../table.ts";

/**
 * Whose hook configuration a file is: the agent's protocol the imported commands were written for
 * (the agent table's rows with an importer), or the hooks template's YAML registry, which
 * src/hooks/packages/import/template.ts reads.
 */
export type ImportDialect = ImportAgent | "template";

/** What an imported hook matches on (a part of hook.yaml's `match`: src/hooks/config/schema.ts matchSchema). */
export interface ImportedMatch {
  /** Claude Code's matcher semantics, over the tool name. */
  readonly tool?: string;
  /** Dotted field path → regex. */
  readonly fields?: Readonly<Record<string, string>>;
  /** Claude Code's `if`: a permission rule (match.if; checked where the plan is read: src/hooks/packages/import). */
  readonly if?: string;
  /** The hooks template's own keys (seed 000), read as the template means them (docs/matching.md). */
  readonly ability_scope?: string;
  readonly only_if_changed_paths?: readonly string[];
  readonly min_duration_ms?: number;
}

/** One command hook found in a file, as the Hookbox hook it becomes. */
export interface ImportedHook {
  readonly id: string;
  readonly dialect: ImportDialect;
  /** The event as the agent names it (what the command reads in hook_event_name). */
  readonly agentEvent: string;
  /** The native event it runs on. */
  readonly event: string;
  /** The run grant: exactly this command line (`sh -c <line>` for a shell command); absent for a prompt hook. */
  readonly run: { readonly cmd: string; readonly args: readonly string[] } | undefined;
  /** A Claude Code `type: "prompt"` hook: the prompt template ($ARGUMENTS as {{event}}), asked of the operator's default model. */
  readonly prompt?: string;
  /** As written in the file (the command, or the prompt). */
  readonly command: string;
  readonly timeoutMs: number;
  readonly match: ImportedMatch;
  /** Where in the file (hooks.PreToolUse[0].hooks[1]). */
  readonly where: string;
  readonly summary: string;
  readonly enabled: boolean;
  readonly onError: "continue" | "deny";
  readonly effects: readonly string[];
  /** Whether its agent lets the command add context (then it declares inject_context). */
  readonly injectContext: boolean;
}

export interface ImportPlan {
  readonly dialect: ImportDialect;
  readonly hooks: readonly ImportedHook[];
  /** What was not imported, and what could not be translated exactly. */
  readonly warnings: readonly string[];
  /** The agent's settings without the imported entries (JSON files of an agent); undefined for other files. */
  readonly remaining?: Record<string, unknown>;
}

/**
 * The events on which an imported hook stands before what the agent does and can stop it: a tool
 * call (PreToolUse, PermissionRequest) or the user's prompt (UserPromptSubmit). There a hook that
 * cannot run — a command that times out or cannot start, a prompt hook with no model — denies: a
 * guard that cannot decide is no allow (its agent would have gone ahead: not so under Hookbox).
 * Elsewhere the agent goes on, the failure recorded and shown: after a tool ran there is nothing
 * left to stop, and a Stop hook that cannot run must not trap the agent in its turn.
 */
const FAILS_CLOSED: ReadonlySet<string> = new Set(["PreToolUse", "PermissionRequest", "UserPromptSubmit"]);

/** An imported hook's on_error, by its native event (or `deny` when its own file asked to fail closed). */
export function importedOnError(event: string, failClosed = false): "continue" | "deny" {
  return failClosed || FAILS_CLOSED.has(event) ? "deny" : "continue";
}

/** A shell-form command becomes `sh -c <line>`: the one grant the user consents to. */
export function shellRun(line: string): ImportedHook["run"] {
  return { cmd: "sh", args: ["-c", line] };
}

export function kebab(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .toLowerCase();
}

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * How a command hook written for an agent is given its event and read back: what the handler of
 * every imported hook (src/hooks/packages/import/handler-source.ts) does for the agent's commands.
 */
export interface CommandReading {
  /** The event on stdin: the agent's payload with the tool input under tool_input ("nested"), or spread at the top ("flat", with conversation_id and workspace_roots). */
  readonly stdin: "nested" | "flat";
  /** A JSON answer: decision/continue/systemMessage with hookSpecificOutput ("hook_specific"), or permission/user_message/agent_message ("permission"). */
  readonly answer: "hook_specific" | "permission";
  /** hookSpecificOutput.decision.behavior (a PermissionRequest answer) decides. */
  readonly decisionBehavior: boolean;
  /** hookSpecificOutput.tool_input rewrites the call. */
  readonly toolInputRewrite: boolean;
  /** Its JSON counts whatever the exit code (else only on exit 0). */
  readonly jsonOnAnyExit: boolean;
  /** Plain stdout on exit 0: context (on the events that take it), a message to the user, or nothing. */
  readonly plainText: "context" | "user_message" | "ignored";
  /** Plain text with an exit code above 1 denies (else it is a warning and the agent goes on). */
  readonly exitAboveOneDenies: boolean;
}

/** Where a file to import is, and what every dialect's commands may name. */
export interface ImportSource {
  /** The file's absolute path. */
  readonly path: string;
  /** Its plugin's root, when it is a plugin's (or an extension's) hooks/hooks.json. */
  readonly pluginRoot?: string;
  /** The variables agents set for their hooks that name the project (the command's working directory here): every importer's. */
  readonly projectVariables: readonly string[];
  /** The variables that name a plugin's root in its commands: every importer's. */
  readonly pluginRootVariables: readonly string[];
}

/** One agent's hook settings as `hookbox import` reads them. */
export interface AgentImporter {
  /** How its commands read their event and are read back. */
  readonly reading: CommandReading;
  /** Variables it sets for its hooks that name the project. */
  readonly projectVariables: readonly string[];
  /** Variables that name a plugin's root in its commands. */
  readonly pluginRootVariables: readonly string[];
  /**
   * Whether a file with no --agent is this agent's (its path, or what only it writes), asked in
   * `order`, lowest first; absent for the agent a file nothing recognises is taken as (the table's
   * fallback agent).
   */
  readonly guess?: { readonly order: number; matches(path: string, root: Json): boolean };
  /** The file's command (and prompt) hooks as Hookbox hooks, and the file without them. */
  read(root: Json, source: ImportSource): ImportPlan;
}
