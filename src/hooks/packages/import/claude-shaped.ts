import { compilePermissionRule } from "../../registry/permission-rule.ts";
import { TOOL_EVENTS } from "../../../core/events/names.ts";
import { runsHookboxEmitHandler } from "../../../agents/shared/install/command.ts";
import { nativeEventName, PROTOCOLS } from "../../../agents/protocols.ts";
import { importedOnError, kebab, shellRun, type ImportDialect, type ImportedHook, type ImportPlan, isObject, type Json } from "./types.ts";

/** Lifecycle events whose matcher Claude compares against a payload field. */
const LIFECYCLE_FIELD: Readonly<Record<string, string>> = {
  SessionStart: "source",
  PreCompact: "trigger",
  PostCompact: "trigger",
  Notification: "notification_type",
  SessionEnd: "reason",
};
/** Variables the agents set for their hooks that name the project: the command's working directory here. */
const PROJECT_VARIABLE = /\$\{?(CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|CODEX_PROJECT_DIR)\}?/;

const DEFAULT_TIMEOUT_MS: Readonly<Record<string, number>> = { claude: 60_000, codex: 600_000, gemini: 60_000 };

/**
 * Claude Code's `hooks` settings (and Codex's, a plugin's hooks.json, Gemini CLI's, which share
 * the shape): event → [{matcher, hooks: [{type: "command", command, timeout}]}]. Command hooks are
 * imported, and prompt hooks (`type: "prompt"`) become Hookbox prompt hooks asking the operator's
 * model; Hookbox's own entries stay; http and agent hooks are left where they are.
 */
export function importClaudeShaped(
  root: Json,
  dialect: Exclude<ImportDialect, "cursor" | "template">,
  options: { readonly pluginRoot?: string },
): ImportPlan {
  const hooks: ImportedHook[] = [];
  const warnings: string[] = [];
  const section = isObject(root.hooks) ? root.hooks : {};
  const remaining: Json = {};
  const protocol = PROTOCOLS[dialect === "codex" ? "codex" : dialect];
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
        if (handler.type === "prompt" && typeof handler.prompt === "string" && event !== undefined) {
          hooks.push(
            promptHook(
              dialect,
              agentEvent,
              event,
              group.matcher,
              handler,
              where,
              hooks.filter((h) => h.agentEvent === agentEvent).length + 1,
              warnings,
            ),
          );
          return;
        }
        if ((handler.type ?? "command") !== "command" || typeof handler.command !== "string") {
          warnings.push(`${where}: a ${String(handler.type)} hook is not a command: left as it is`);
          return kept.push(handler);
        }
        if (event === undefined) {
          warnings.push(`${where}: Hookbox has no event for ${agentEvent}: left as it is`);
          return kept.push(handler);
        }
        hooks.push(
          commandHook(
            dialect,
            agentEvent,
            event,
            group.matcher,
            handler,
            where,
            hooks.filter((h) => h.agentEvent === agentEvent).length + 1,
            options,
            warnings,
          ),
        );
      });
      if (kept.length > 0) keptGroups.push({ ...group, hooks: kept });
    });
    if (keptGroups.length > 0) remaining[agentEvent] = keptGroups;
  }
  return { dialect, hooks, warnings, remaining: { ...root, hooks: remaining } };
}

function commandHook(
  dialect: ImportDialect,
  agentEvent: string,
  event: string,
  matcher: unknown,
  handler: Json,
  where: string,
  n: number,
  options: { readonly pluginRoot?: string },
  warnings: string[],
): ImportedHook {
  const written = handler.command as string;
  let line = options.pluginRoot ? written.replace(/\$\{?(CLAUDE_PLUGIN_ROOT|extensionPath)\}?/g, options.pluginRoot) : written;
  // The agent names the project in a variable; here the command runs in the project, so it is $PWD.
  const variable = PROJECT_VARIABLE.exec(line)?.[1];
  if (variable) line = `export ${variable}="$PWD"; ${line}`;
  const exec = Array.isArray(handler.args) && handler.args.every((arg) => typeof arg === "string") && /^([A-Za-z0-9_.+-]+|\/[^\s]*)$/.test(line);
  const run = exec
    ? { cmd: line, args: handler.args as string[] }
    : shellRun(Array.isArray(handler.args) ? [line, ...(handler.args as string[]).map(quote)].join(" ") : line);
  const seconds = typeof handler.timeout === "number" && handler.timeout > 0 ? handler.timeout : undefined;
  const timeoutMs = seconds === undefined ? (DEFAULT_TIMEOUT_MS[dialect] ?? 60_000) : dialect === "gemini" ? seconds : seconds * 1000;
  if (handler.async === true) warnings.push(`${where}: async in ${dialect} (it could not decide); here it runs before the agent goes on`);
  return {
    id: `${dialect}-${kebab(agentEvent)}-${n}`,
    dialect,
    agentEvent,
    event,
    run,
    command: written,
    timeoutMs,
    match: { ...matchOf(dialect, event, typeof matcher === "string" ? matcher : undefined), ...ifOf(handler, where, warnings) },
    where,
    summary: `${dialect === "codex" ? "Codex" : dialect === "gemini" ? "Gemini CLI" : "Claude Code"} command hook: ${written}`.slice(0, 500),
    enabled: true,
    onError: importedOnError(event),
    effects: [],
    injectContext: true,
  };
}

/** Claude Code's prompt hooks take 30 s unless they say otherwise. */
const PROMPT_TIMEOUT_MS = 30_000;

/**
 * A `type: "prompt"` hook: the same single-turn question, answered {ok, reason} as Claude's are,
 * asked of the operator's `default` model endpoint (never the agent's cloud model). `$ARGUMENTS`
 * (the hook input as JSON) becomes {{event}}; a prompt without it gets the input appended, as
 * Claude Code does.
 */
function promptHook(
  dialect: ImportDialect,
  agentEvent: string,
  event: string,
  matcher: unknown,
  handler: Json,
  where: string,
  n: number,
  warnings: string[],
): ImportedHook {
  const written = handler.prompt as string;
  const template = written.includes("$ARGUMENTS") ? written.split("$ARGUMENTS").join("{{event}}") : `${written}\n\n{{event}}`;
  if (typeof handler.model === "string")
    warnings.push(`${where}: model ${handler.model} is the agent's; here the prompt goes to hookbox.yaml's llm default endpoint`);
  const seconds = typeof handler.timeout === "number" && handler.timeout > 0 ? handler.timeout : undefined;
  return {
    id: `${dialect}-${kebab(agentEvent)}-${n}`,
    dialect,
    agentEvent,
    event,
    run: undefined,
    prompt: template,
    command: written,
    timeoutMs: seconds === undefined ? PROMPT_TIMEOUT_MS : seconds * 1000,
    match: { ...matchOf(dialect, event, typeof matcher === "string" ? matcher : undefined), ...ifOf(handler, where, warnings) },
    where,
    summary: `Claude Code prompt hook: ${written.replace(/\s+/g, " ")}`.slice(0, 500),
    enabled: true,
    onError: importedOnError(event),
    effects: [],
    injectContext: false,
  };
}

function quote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * Claude Code's `if` (2.1.85+: a permission rule narrowing a handler to some tool calls) is
 * match.if. Dropped, the hook would run on every call its matcher selects — a hook that blocks
 * `git push` would block every command; a rule Hookbox cannot read is said so, and dropped.
 */
function ifOf(handler: Json, where: string, warnings: string[]): ImportedHook["match"] {
  if (handler.if === undefined) return {};
  const rule = typeof handler.if === "string" ? compilePermissionRule(handler.if) : undefined;
  if (rule?.ok) return { if: handler.if as string };
  warnings.push(
    `${where}: if ${JSON.stringify(handler.if)} is not a rule Hookbox reads (${rule?.message ?? "expected a string"}): the hook runs on every call its matcher selects`,
  );
  return {};
}

/** A matcher as the agent means it: Claude's own semantics for tools (match.tool), exact values for lifecycle events. */
function matchOf(dialect: ImportDialect, event: string, matcher: string | undefined): ImportedHook["match"] {
  if (matcher === undefined || matcher === "" || matcher === "*") return {};
  if (TOOL_EVENTS.has(event)) return dialect === "gemini" ? { fields: { agent_tool_name: matcher } } : { tool: matcher };
  const field = LIFECYCLE_FIELD[event];
  if (!field) return {};
  return { fields: { [field]: dialect === "gemini" ? `^${matcher.replace(/[.*+?^${}()[\]\\]/g, "\\$&")}$` : `^(${matcher})$` } };
}
