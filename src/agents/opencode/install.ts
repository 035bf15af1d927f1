import { HookboxError } from "../../core/errors.ts";
import { quoteExecutable } from "../shared/install/command.ts";
import { OPENCODE_EVENTS, OPENCODE_PLUGIN_MARKER, opencodePluginSource } from "./plugin.ts";
import { joinPath } from "../shared/install/paths.ts";
import { selectEvents } from "../shared/install/plan.ts";
import type { InstallOptions, InstallPlan, InstallPlanner } from "../shared/install/types.ts";

/** Hookbox's own file in opencode's plugin directory: opencode loads every file there. */
const FILE_NAME = "hookbox.js";

const NOTES = [
  "! opencode installs its plugin API (npm install @opencode-ai/plugin, in its config directory) the first time it loads a plugin: that start needs the network once",
];

function isHookboxPlugin(text: string): boolean {
  return text.replace(/^\uFEFF/, "").startsWith(OPENCODE_PLUGIN_MARKER);
}

function describeHooks(events: readonly string[]): string[] {
  const byNative = new Map(Object.entries(OPENCODE_EVENTS).map(([hook, native]) => [native, hook]));
  return events.map((event) => `+ ${event}: asked in opencode's ${byNative.get(event)} hook`);
}

/**
 * opencode has no hook settings to merge into: Hookbox's part is a whole file, its plugin, which
 * install-agent owns (rewritten when it differs, refused when the file there is someone else's)
 * and uninstall-agent removes.
 */
function planInstall(existingText: string | undefined, options: InstallOptions = {}): InstallPlan {
  const file = options.file ?? `opencode's plugin/${FILE_NAME}`;
  const events = selectEvents("opencode", OPENCODE_EVENTS, options).map((hook) => OPENCODE_EVENTS[hook] as string);
  const present = existingText !== undefined && existingText.trim() !== "";
  if (present && !isHookboxPlugin(existingText)) {
    throw new HookboxError(
      "config_invalid",
      `${file} is not a plugin Hookbox wrote (its first line is not "${OPENCODE_PLUGIN_MARKER}"). Nothing was changed. Move it away, then run again.`,
    );
  }
  const text = opencodePluginSource({
    hookbox: options.hookboxCommand ?? "hookbox",
    buildId: options.buildId ?? "unknown",
    events,
    failClosed: options.failClosed === true,
  });
  if (present && existingText === text) return { text, changed: false, summary: ["= the plugin: already installed"] };
  const how = `asks the daemon, else runs \`${quoteExecutable(options.hookboxCommand ?? "hookbox")} emit <event> --agent native\`${options.failClosed ? " --fail-closed" : ""}`;
  return {
    text,
    changed: true,
    summary: [present ? `~ the plugin: updated (${how})` : `+ create ${file} (${how})`, ...describeHooks(events), ...NOTES],
  };
}

function planUninstall(existingText: string | undefined): InstallPlan {
  if (existingText === undefined || existingText.trim() === "") return { text: existingText ?? "", changed: false, summary: [] };
  if (!isHookboxPlugin(existingText))
    return { text: existingText, changed: false, summary: ["= the file there is not Hookbox's plugin: left alone"] };
  return { text: "", changed: true, removesFile: true, summary: ["- the plugin file (Hookbox's own)"] };
}

/** The events the plugin at hand asks Hookbox about, and the executable it falls back to: what `doctor` checks. */
export function opencodePluginEntries(text: string): { event: string; command: string }[] {
  if (!isHookboxPlugin(text)) return [];
  const hookbox = /^const HOOKBOX = ("(?:[^"\\]|\\.)*");$/m.exec(text)?.[1];
  const events = /^const EVENTS = new Set\((\[[^\n]*\])\);$/m.exec(text)?.[1];
  if (hookbox === undefined || events === undefined) return [];
  const failClosed = /^const FAIL_CLOSED = true;$/m.test(text);
  const byNative = new Map(Object.entries(OPENCODE_EVENTS).map(([hook, native]) => [native, hook]));
  return (JSON.parse(events) as string[]).map((native) => ({
    event: byNative.get(native) ?? native,
    command: `${quoteExecutable(JSON.parse(hookbox) as string)} emit ${native} --agent native${failClosed ? " --fail-closed" : ""}`,
  }));
}

export const installer: InstallPlanner = {
  agent: "opencode",
  defaultEvents: Object.keys(OPENCODE_EVENTS),
  help: `opencode has no hook settings: its entry is a plugin file Hookbox writes (and uninstall-agent
removes).`,
  /** Its entries are the events the plugin asks about, each with the emit command it falls back to. */
  entries: (text) => opencodePluginEntries(text),
  /** opencode's config directory follows XDG_CONFIG_HOME (default ~/.config/opencode); a project's is .opencode/. */
  configPath(scope, dirs) {
    if (scope === "user")
      return joinPath(
        dirs.env?.XDG_CONFIG_HOME?.startsWith("/") ? dirs.env.XDG_CONFIG_HOME : joinPath(dirs.home, ".config"),
        "opencode",
        "plugin",
        FILE_NAME,
      );
    return scope === "project" ? joinPath(dirs.project, ".opencode", "plugin", FILE_NAME) : undefined;
  },
  planInstall,
  planUninstall,
};
