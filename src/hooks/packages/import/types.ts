import type { MatchConfig } from "../../config/schema.ts";

/** Whose hook configuration a file is: the agent's protocol the imported commands were written for. */
export type ImportDialect = "claude" | "codex" | "gemini" | "cursor" | "template";

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
  readonly match: Partial<MatchConfig>;
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
