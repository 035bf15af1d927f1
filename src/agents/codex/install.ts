import { emitCommand, runsHookboxEmitHandler } from "../shared/install/command.ts";
import type { DesiredEntry } from "../shared/install/hook-entries.ts";
import { hookPlans } from "../shared/install/hook-plans.ts";
import { joinPath, userConfigDir } from "../shared/install/paths.ts";
import { selectEvents, timeoutSeconds, type AgentEvents, type JsonDialect } from "../shared/install/plan.ts";
import type { InstallDirs, InstallOptions, InstallPlanner } from "../shared/install/types.ts";

/** Codex's events (research §4.3; SessionEnd since 0.169), Claude's names. */
const EVENTS: AgentEvents = Object.fromEntries(
  [
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "UserPromptSubmit",
    "Stop",
    "SessionStart",
    "SessionEnd",
    "PreCompact",
    "PostCompact",
    "SubagentStart",
    "SubagentStop",
  ].map((name) => [name, name]),
);

/** Codex gives a SessionEnd hook at most 3 s, whatever the entry says (codex-rs/hooks discovery.rs): the entry says what it gets. */
const SESSION_END_MAX_SECONDS = 3;

/** hooks.json may hold only these at the top: Codex refuses the whole file otherwise (research §4.2). */
const ROOT_KEYS: ReadonlySet<string> = new Set(["description", "hooks"]);

/** hooks.json is read with serde_json: strict JSON. */
const DIALECT: JsonDialect = { comments: false, trailingCommas: false, whenInvalid: "Codex refuses the file, and none of its hooks run" };

/** The handler install-agent writes for `event`: what `--trust` records as trusted, and nothing else. */
export function codexHandler(
  event: string,
  options: Pick<InstallOptions, "hookboxCommand" | "failClosed" | "system">,
): { readonly type: "command"; readonly command: string; readonly timeout: number } {
  const timeout = event === "SessionEnd" ? Math.min(timeoutSeconds(event), SESSION_END_MAX_SECONDS) : timeoutSeconds(event);
  return { type: "command", command: emitCommand(options.hookboxCommand ?? "hookbox", event, "codex", options), timeout };
}

function desiredEntries(options: InstallOptions): DesiredEntry[] {
  return selectEvents("Codex", EVENTS, options).map((event) => {
    const handler = codexHandler(event, options);
    return { event, handler, description: `\`${handler.command}\` (timeout ${handler.timeout} s)` };
  });
}

function notes(root: Record<string, unknown>, changed: boolean, trusting: boolean): string[] {
  const lines: string[] = [];
  const foreign = Object.keys(root).filter((key) => !ROOT_KEYS.has(key));
  if (foreign.length > 0)
    lines.push(
      `! Codex refuses a hooks.json with top-level keys other than "description" and "hooks" (found ${foreign.map((key) => `"${key}"`).join(", ")})`,
    );
  // Untrusted hooks are skipped silently (research §4.2; trust.ts).
  if (changed && !trusting)
    lines.push(
      "! Codex skips new or changed hooks without a word until you trust them: review them in Codex's /hooks, or run this again with --trust (hookbox doctor tells whether they are trusted)",
    );
  return lines;
}

/** $CODEX_HOME/config.toml: the user layer, the only one where Codex records that a hook is trusted (trust.ts). */
export function codexUserConfigPath(dirs: InstallDirs): string {
  return joinPath(userConfigDir(dirs), "config.toml");
}

export const installer: InstallPlanner = {
  agent: "codex",
  defaultEvents: Object.keys(EVENTS),
  help: `Codex runs a hook only once you have trusted it (in Codex's /hooks); until then it skips it
without a word. --trust records that trust for exactly the entries written, and nothing else:
use it when you have read them. hookbox doctor says whether Codex trusts them.`,
  /** CODEX_HOME moves the user's Codex directory (default ~/.codex); Codex has no local scope. */
  configPath(scope, dirs) {
    if (scope === "user") return joinPath(userConfigDir(dirs), "hooks.json");
    return scope === "project" ? joinPath(dirs.project, ".codex", "hooks.json") : undefined;
  },
  ...hookPlans({
    label: "Codex hooks.json",
    shape: "grouped",
    dialect: DIALECT,
    isHookbox: runsHookboxEmitHandler,
    entries: desiredEntries,
    notes: (root, { changed, options }) => notes(root, changed, options.trusting === true),
  }),
};
