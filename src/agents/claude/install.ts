import { HookboxError } from "../../core/errors.ts";
import { emitCommand, runsHookboxEmit } from "../shared/install/command.ts";
import type { DesiredEntry } from "../shared/install/hook-entries.ts";
import { hookPlans } from "../shared/install/hook-plans.ts";
import { joinPath, userConfigDir } from "../shared/install/paths.ts";
import { snakeCase } from "../shared/protocol/payload.ts";
import { selectEvents, timeoutSeconds, type AgentEvents, type JsonDialect } from "../shared/install/plan.ts";
import type { HttpHookOptions, InstallOptions, InstallPlanner } from "../shared/install/types.ts";

/** Claude Code fires these with names Hookbox uses as its own (research §1.4); installed by default. */
const CORE_EVENTS = [
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "Notification",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "PostCompact",
  "SessionStart",
  "SessionEnd",
] as const;

/**
 * Claude Code 2.1.330's other events (its hook-event list and output schema, read from the shipped
 * binary). They decode to claude.<snake_case> (claude.post_tool_batch …) and are answered within
 * what that schema accepts (protocol.ts). Installed only when named with --events: MessageDisplay
 * fires on every streamed chunk and FileChanged on every watched write, so each is a process start
 * the user chooses to pay for.
 */
const NEWER_EVENTS = [
  "PostToolBatch",
  "UserPromptExpansion",
  "Setup",
  "TaskCreated",
  "TaskCompleted",
  "TeammateIdle",
  "StopFailure",
  "PermissionDenied",
  "ConfigChange",
  "CwdChanged",
  "FileChanged",
  "InstructionsLoaded",
  "DirectoryAdded",
  "WorktreeRemove",
  "PreModelSwitch",
  "PostModelSwitch",
  "MessageDisplay",
] as const;

/** Events whose answer Claude needs is work Hookbox does not do: refused by name, with the reason. */
const REFUSED_EVENTS: Readonly<Record<string, string>> = {
  WorktreeCreate:
    "a WorktreeCreate hook replaces Claude Code's own `git worktree add` and must print the path it created (worktreePath); Hookbox's hooks decide, they do not create worktrees, so installing it would break --worktree",
  Elicitation:
    "an Elicitation hook fills in an MCP server's form on the user's behalf (action, content); a sandboxed hook answering for the user is the opposite of what Hookbox is for",
  ElicitationResult: "an ElicitationResult hook rewrites what the user answered an MCP server's form; Hookbox does not change the user's own answers",
};

const EVENTS: AgentEvents = Object.fromEntries([
  ...CORE_EVENTS.map((name) => [name, name]),
  ...NEWER_EVENTS.map((name) => [name, `claude.${snakeCase(name)}`]),
]);

/**
 * The words Claude Code shows beside its spinner while the hook runs (the entry's statusMessage),
 * on the events where the user waits on Hookbox's answer; elsewhere Claude's own text stays.
 */
const STATUS_MESSAGES: Readonly<Record<string, string>> = {
  PreToolUse: "Hookbox: checking the tool call",
  PermissionRequest: "Hookbox: checking the permission request",
  UserPromptSubmit: "Hookbox: checking the prompt",
  Stop: "Hookbox: checking the end of the turn",
  SubagentStop: "Hookbox: checking the subagent's result",
};

/** Claude runs no http hook on these (2.1.330: "HTTP hooks are not supported for SessionStart"). */
const COMMAND_ONLY_EVENTS: ReadonlySet<string> = new Set(["SessionStart", "Setup"]);
const DAEMON_PATH = "/v1/agents/claude";
const LOOPBACK_URL = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?(\/[^\s?#]*)?$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Claude Code reads settings as strict JSON: with a comment or a trailing comma it drops the
 * whole file, hooks included (2.1.330, test/e2e/agents/claude-install.test.ts; reported in
 * anthropics/claude-code#83190 as "Invalid or malformed JSON").
 */
const DIALECT: JsonDialect = { comments: false, trailingCommas: false, whenInvalid: "Claude Code ignores all of it, Hookbox's hooks included" };

function daemonUrl(url: string): string {
  const match = LOOPBACK_URL.exec(url);
  if (!match)
    throw new HookboxError(
      "usage",
      `--http ${url}: expected the daemon's loopback listener, like http://127.0.0.1:8787 (events carry code and prompts; they must not leave the machine)`,
    );
  return match[3] === undefined || match[3] === "/" ? `${url.replace(/\/$/, "")}${DAEMON_PATH}` : url;
}

function httpHandler(http: HttpHookOptions, timeout: number): Record<string, unknown> {
  if ((http.tokenEnvVar === undefined) === (http.header === undefined)) {
    throw new HookboxError(
      "usage",
      '--http needs the daemon\'s bearer token: --token-env NAME (the environment variable holding it) or --auth-header VALUE (a literal Authorization header), not both. The token is what `hookbox serve --listen HOST:PORT` writes to its --token-file (default ~/.local/share/hookbox/http-token): export HOOKBOX_TOKEN="$(cat ~/.local/share/hookbox/http-token)" where Claude Code starts, and pass --token-env HOOKBOX_TOKEN',
    );
  }
  if (http.tokenEnvVar !== undefined && !ENV_NAME.test(http.tokenEnvVar))
    throw new HookboxError("usage", `"${http.tokenEnvVar}" is not an environment variable name`);
  return {
    type: "http",
    url: daemonUrl(http.url),
    timeout,
    // Claude interpolates $VAR in header values only for variables listed in allowedEnvVars.
    headers: { Authorization: http.tokenEnvVar !== undefined ? `Bearer $${http.tokenEnvVar}` : http.header },
    ...(http.tokenEnvVar !== undefined && { allowedEnvVars: [http.tokenEnvVar] }),
  };
}

function isHookboxHandler(handler: Readonly<Record<string, unknown>>): boolean {
  if (handler.type === "http") return typeof handler.url === "string" && handler.url.replace(/\/$/, "").endsWith(DAEMON_PATH);
  return runsHookboxEmit(handler.command);
}

function desiredEntries(options: InstallOptions): DesiredEntry[] {
  for (const name of options.events ?? []) {
    const refused = Object.hasOwn(REFUSED_EVENTS, name) ? REFUSED_EVENTS[name] : undefined;
    if (refused !== undefined) throw new HookboxError("usage", `Claude Code's ${name} is not installable: ${refused}`);
  }
  return selectEvents("Claude Code", EVENTS, options, CORE_EVENTS).map((event) => {
    const timeout = timeoutSeconds(event);
    const statusMessage = Object.hasOwn(STATUS_MESSAGES, event) ? STATUS_MESSAGES[event] : undefined;
    const status: Record<string, unknown> = statusMessage === undefined ? {} : { statusMessage };
    if (options.http && !COMMAND_ONLY_EVENTS.has(event)) {
      const handler: Record<string, unknown> = { ...httpHandler(options.http, timeout), ...status };
      return { event, handler, description: `POST to ${String(handler.url)} (timeout ${timeout} s)` };
    }
    const command = emitCommand(options.hookboxCommand ?? "hookbox", event, "claude", options);
    return { event, handler: { type: "command", command, timeout, ...status }, description: `\`${command}\` (timeout ${timeout} s)` };
  });
}

function notes(root: Record<string, unknown>, options: InstallOptions): string[] {
  const lines: string[] = [];
  if (root.disableAllHooks === true) lines.push('! "disableAllHooks" is true in this file: Claude Code runs no hook until it is removed');
  if (options.http?.header !== undefined)
    lines.push("! the Authorization header is stored in this file in plain text; prefer an environment variable");
  if (options.http && Array.isArray(root.allowedHttpHookUrls))
    lines.push('! "allowedHttpHookUrls" is set: make sure it lets the daemon\'s URL through');
  return lines;
}

export const installer: InstallPlanner = {
  agent: "claude",
  defaultEvents: [...CORE_EVENTS],
  /**
   * Its `type: "http"` hooks POST events to the daemon (install-agent --http). Claude Code treats
   * an http hook's connection error or non-2xx answer as a non-blocking error: the tool runs.
   */
  help: `With --http, Claude Code's hooks fail open when the daemon or its token is missing: keep guards
on command hooks. Claude Code's newer events (${NEWER_EVENTS.join(", ")}) are installed only when
named with --events; they reach hooks as claude.<snake_case> (claude.post_tool_batch).`,
  http: {
    warning:
      "Claude Code's http hooks fail OPEN: when the daemon is not running, not listening on that URL, or the token is missing or wrong, Claude treats the failed request as a non-blocking error and runs the tool unchecked. Keep guards on command hooks (install-agent without --http); hookbox doctor checks that the daemon answers and the token is set",
  },
  /**
   * Project scope is the committable .claude/settings.json (research §1.1), where a team shares
   * its hooks; local is .claude/settings.local.json, this user's only. The user's settings are in
   * its config directory (CLAUDE_CONFIG_DIR, default ~/.claude).
   */
  configPath(scope, dirs) {
    if (scope === "user") return joinPath(userConfigDir(dirs), "settings.json");
    return joinPath(dirs.project, ".claude", scope === "local" ? "settings.local.json" : "settings.json");
  },
  ...hookPlans({
    label: "Claude Code settings",
    shape: "grouped",
    dialect: DIALECT,
    isHookbox: isHookboxHandler,
    entries: desiredEntries,
    notes: (root, { options }) => notes(root, options),
  }),
};
