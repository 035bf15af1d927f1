import { TOOL_EVENTS } from "../../../core/events/names.ts";
import { runsHookboxEmitHandler } from "../install/command.ts";
import { nativeEventName } from "../protocol/event-names.ts";
import type { ImportAgent } from "../../table.ts";
import type { AgentProtocol } from "../protocol/types.ts";
import {
  importedOnError,
  kebab,
  shellRun,
  type AgentImporter,
  type CommandReading,
  type ImportedHook,
  type ImportedMatch,
  type ImportPlan,
  type ImportSource,
  isObject,
  type Json,
} from "./types.ts";

/** Lifecycle events whose matcher Claude compares against a payload field. */
const LIFECYCLE_FIELD: Readonly<Record<string, string>> = {
  SessionStart: "source",
  PreCompact: "trigger",
  PostCompact: "trigger",
  Notification: "notification_type",
  SessionEnd: "reason",
};
/** An agent whose hook settings are grouped by matcher, and how it reads them. */
export interface GroupedDialect {
  readonly name: ImportAgent;
  /** For summaries: "Claude Code". */
  readonly label: string;
  /** Its protocol: its event names. */
  readonly protocol: AgentProtocol;
  /** A command hook's timeout when it sets none. */
  readonly defaultTimeoutMs: number;
  /** The unit of its `timeout`. */
  readonly timeoutUnit: "s" | "ms";
  /**
   * How it reads a matcher: "patterns" — Claude Code's tool-name semantics (match.tool), a regex on
   * lifecycle events; "exact" — a regex on the agent's own tool name, exact values on lifecycle events.
   */
  readonly matchers: "patterns" | "exact";
  readonly reading: CommandReading;
  readonly projectVariables: readonly string[];
  readonly pluginRootVariables: readonly string[];
  readonly guess?: AgentImporter["guess"];
}

/**
 * How most agents read a command hook (the contract Claude Code set and Codex keeps): the payload
 * on stdin, JSON with hookSpecificOutput whatever the exit code, plain stdout as context on the
 * events that take it, exit 2 a block and any other exit a warning.
 */
export const LINGUA_FRANCA_READING: CommandReading = {
  stdin: "nested",
  answer: "hook_specific",
  decisionBehavior: true,
  toolInputRewrite: false,
  jsonOnAnyExit: true,
  plainText: "context",
  exitAboveOneDenies: false,
};

/** An importer for hook settings grouped by matcher. */
export function groupedImporter(dialect: GroupedDialect): AgentImporter {
  return {
    reading: dialect.reading,
    projectVariables: dialect.projectVariables,
    pluginRootVariables: dialect.pluginRootVariables,
    ...(dialect.guess && { guess: dialect.guess }),
    read: (root, source) => importGrouped(root, dialect, source),
  };
}

function variablePattern(names: readonly string[]): RegExp | undefined {
  return names.length === 0 ? undefined : new RegExp(`\\$\\{?(${names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})\\}?`);
}

/**
 * The `hooks` settings most agents share (Claude Code's, Codex's, a plugin's hooks.json, Gemini
 * CLI's): event → [{matcher, hooks: [{type: "command", command, timeout}]}]. Command hooks are
 * imported, and prompt hooks (`type: "prompt"`) become Hookbox prompt hooks asking the operator's
 * model; Hookbox's own entries stay; http and agent hooks are left where they are.
 */
function importGrouped(root: Json, dialect: GroupedDialect, source: ImportSource): ImportPlan {
  const hooks: ImportedHook[] = [];
  const warnings: string[] = [];
  const section = isObject(root.hooks) ? root.hooks : {};
  const remaining: Json = {};
  const protocol = dialect.protocol;
  for (const [agentEvent, groups] of Object.entries(section)) {
    if (!Array.isArray(groups)) {
      remaining[agentEvent] = groups;
      continue;
    }
    const event = nativeEventName(protocol, agentEvent);
    const keptGroups: unknown[] = [];
    groups.forEach((group, groupIndex) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return keptGroups.push(group);
      const kept: unknown[] = [];
      group.hooks.forEach((handler, index) => {
        const where = `hooks.${agentEvent}[${groupIndex}].hooks[${index}]`;
        if (!isObject(handler) || runsHookboxEmitHandler(handler)) return kept.push(handler);
        const found = (event: string): Found => ({
          agentEvent,
          event,
          matcher: group.matcher,
          handler,
          where,
          n: hooks.filter((h) => h.agentEvent === agentEvent).length + 1,
        });
        if (handler.type === "prompt" && typeof handler.prompt === "string" && event !== undefined) {
          hooks.push(promptHook(dialect, found(event), warnings));
          return;
        }
        const notImported = typeof handler.type === "string" && Object.hasOwn(NOT_IMPORTED, handler.type) ? NOT_IMPORTED[handler.type] : undefined;
        if (notImported !== undefined) {
          warnings.push(`${where}: a hook of type "${handler.type}" is not imported: ${notImported}; left as it is`);
          return kept.push(handler);
        }
        if ((handler.type ?? "command") !== "command" || typeof handler.command !== "string") {
          warnings.push(`${where}: a ${String(handler.type)} hook is not a command: left as it is`);
          return kept.push(handler);
        }
        if (event === undefined) {
          warnings.push(`${where}: Hookbox has no event for ${agentEvent}: left as it is`);
          return kept.push(handler);
        }
        hooks.push(commandHook(dialect, found(event), source, warnings));
      });
      if (kept.length > 0) keptGroups.push({ ...group, hooks: kept });
    });
    if (keptGroups.length > 0) remaining[agentEvent] = keptGroups;
  }
  return { dialect: dialect.name, hooks, warnings, remaining: { ...root, hooks: remaining } };
}

/** One handler found in the file, and where. */
interface Found {
  readonly agentEvent: string;
  readonly event: string;
  readonly matcher: unknown;
  readonly handler: Json;
  readonly where: string;
  /** Its number among its event's imported hooks (for its id). */
  readonly n: number;
}

/** What an imported hook says of where it came from, whatever its kind. */
function importedFrom(dialect: GroupedDialect, { agentEvent, event, matcher, handler, where, n }: Found, warnings: string[]) {
  return {
    id: `${dialect.name}-${kebab(agentEvent)}-${n}`,
    dialect: dialect.name,
    agentEvent,
    event,
    match: { ...matchOf(dialect, event, typeof matcher === "string" ? matcher : undefined), ...ifOf(handler, where, warnings) },
    where,
    enabled: true,
    onError: importedOnError(event),
    effects: [],
  };
}

function commandHook(dialect: GroupedDialect, found: Found, source: ImportSource, warnings: string[]): ImportedHook {
  const { handler, where } = found;
  const written = handler.command as string;
  const pluginRoot = variablePattern(source.pluginRootVariables);
  let line = source.pluginRoot && pluginRoot ? written.replace(new RegExp(pluginRoot.source, "g"), source.pluginRoot) : written;
  // The agent names the project in a variable; here the command runs in the project, so it is $PWD.
  const variable = variablePattern(source.projectVariables)?.exec(line)?.[1];
  if (variable) line = `export ${variable}="$PWD"; ${line}`;
  const exec = Array.isArray(handler.args) && handler.args.every((arg) => typeof arg === "string") && /^([A-Za-z0-9_.+-]+|\/[^\s]*)$/.test(line);
  const run = exec
    ? { cmd: line, args: handler.args as string[] }
    : shellRun(Array.isArray(handler.args) ? [line, ...(handler.args as string[]).map(quote)].join(" ") : line);
  const seconds = typeof handler.timeout === "number" && handler.timeout > 0 ? handler.timeout : undefined;
  const timeoutMs = seconds === undefined ? dialect.defaultTimeoutMs : dialect.timeoutUnit === "ms" ? seconds : seconds * 1000;
  if (handler.async === true) warnings.push(`${where}: async in ${dialect.name} (it could not decide); here it runs before the agent goes on`);
  return {
    ...importedFrom(dialect, found, warnings),
    run,
    command: written,
    timeoutMs,
    summary: `${dialect.label} command hook: ${written}`.slice(0, 500),
    injectContext: true,
  };
}

/**
 * Hook types with no sandboxed equivalent, and why: each needs the agent's own machinery, which
 * runs outside Hookbox with the agent's permissions. Kept where they are (the agent still runs
 * them), with the reason in the plan rather than the generic "not a command".
 */
const NOT_IMPORTED: Readonly<Record<string, string>> = {
  agent:
    "it starts a subagent that uses the agent's own tools (Read, Grep, Bash …) to check a condition, and a hook with the agent's tools is outside any sandbox; a prompt hook (one question, no tools) or a TypeScript hook with fs grants is the bounded equivalent",
  mcp_tool:
    "it calls a tool on one of the agent's MCP servers, which are the agent's own processes and connections; Hookbox cannot reach them, and a grant to call arbitrary MCP tools would not be bounded",
};

/** Claude Code's prompt hooks take 30 s unless they say otherwise. */
const PROMPT_TIMEOUT_MS = 30_000;

/**
 * A `type: "prompt"` hook: the same single-turn question, answered {ok, reason} as Claude's are,
 * asked of the operator's `default` model endpoint (never the agent's cloud model). `$ARGUMENTS`
 * (the hook input as JSON) becomes {{event}}; a prompt without it gets the input appended, as
 * Claude Code does.
 */
function promptHook(dialect: GroupedDialect, found: Found, warnings: string[]): ImportedHook {
  const { handler, where } = found;
  const written = handler.prompt as string;
  const template = written.includes("$ARGUMENTS") ? written.split("$ARGUMENTS").join("{{event}}") : `${written}\n\n{{event}}`;
  if (typeof handler.model === "string")
    warnings.push(`${where}: model ${handler.model} is the agent's; here the prompt goes to hookbox.yaml's llm default endpoint`);
  const seconds = typeof handler.timeout === "number" && handler.timeout > 0 ? handler.timeout : undefined;
  return {
    ...importedFrom(dialect, found, warnings),
    run: undefined,
    prompt: template,
    command: written,
    timeoutMs: seconds === undefined ? PROMPT_TIMEOUT_MS : seconds * 1000,
    summary: `${dialect.label} prompt hook: ${written.replace(/\s+/g, " ")}`.slice(0, 500),
    injectContext: false,
  };
}

function quote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * Claude Code's `if` (2.1.85+: a permission rule narrowing a handler to some tool calls) is
 * match.if. Dropped, the hook would run on every call its matcher selects — a hook that blocks
 * `git push` would block every command. Whether Hookbox reads the rule is checked with the plan
 * (src/hooks/packages/import: the rule compiler sits above this wing).
 */
function ifOf(handler: Json, where: string, warnings: string[]): ImportedMatch {
  if (handler.if === undefined) return {};
  if (typeof handler.if === "string") return { if: handler.if };
  warnings.push(`${where}: if ${JSON.stringify(handler.if)} is not a rule (expected a string): the hook runs on every call its matcher selects`);
  return {};
}

/** A matcher as the agent means it (GroupedDialect.matchers): on a tool event over the tool, on a lifecycle event over the field it compares. */
function matchOf(dialect: GroupedDialect, event: string, matcher: string | undefined): ImportedHook["match"] {
  if (matcher === undefined || matcher === "" || matcher === "*") return {};
  const exact = dialect.matchers === "exact";
  if (TOOL_EVENTS.has(event)) return exact ? { fields: { agent_tool_name: matcher } } : { tool: matcher };
  const field = LIFECYCLE_FIELD[event];
  if (!field) return {};
  return { fields: { [field]: exact ? `^${matcher.replace(/[.*+?^${}()[\]\\]/g, "\\$&")}$` : `^(${matcher})$` } };
}
