import { parse as parseToml } from "smol-toml";
import { HookboxError, errorMessage } from "../../core/errors.ts";
import { underRoot } from "../../core/text/posix-path.ts";
import type { ManagedSettings } from "../shared/install/managed.ts";
import { codexHandler, installer } from "./install.ts";

const BEGIN = "# >>> hookbox: written by hookbox install --system; hookbox uninstall --system takes it out";
const END = "# <<< hookbox";

/**
 * Codex's managed requirements (/etc/codex/requirements.toml, 0.169): hooks under [hooks] with a
 * managed_dir that exists run for every user, need no trust, and no user setting disables them;
 * allow_managed_hooks_only (top level) makes Codex ignore every other hook; [features] hooks = true
 * keeps a user's config from turning hooks off. TOML keeps top-level keys before any table, so
 * Hookbox's block goes first, as top-level dotted keys with inline tables: it never reopens a table
 * the administrator's file declares. A file that already configures any of them is refused.
 */
export const managed: ManagedSettings = {
  agent: "codex",
  label: "Codex managed requirements",
  path: (root) => underRoot(root, "/etc/codex/requirements.toml"),
  requiredDirs: ({ policyDir }) => [policyDir],
  // The hooks are in managed_dir's files; this file's block names their commands.
  entryCommands: (text) => [...text.matchAll(/command = ("(?:[^"\\]|\\.)*")/g)].map((m) => JSON.parse(m[1] as string) as string),
  planInstall(existing, options) {
    const rest = withoutBlock(existing ?? "");
    const document = parse(rest, options.file);
    const taken = [
      document.hooks !== undefined && "hooks",
      options.managedHooksOnly && document.allow_managed_hooks_only !== undefined && "allow_managed_hooks_only",
    ].filter((key): key is string => typeof key === "string");
    if (taken.length > 0)
      throw new HookboxError(
        "config_invalid",
        `${options.file} already sets ${taken.join(" and ")}: add Hookbox's entries to it by hand (hookbox install --system --dry-run shows them), nothing was changed`,
      );
    const features = document.features as Record<string, unknown> | undefined;
    const lines = [BEGIN];
    if (options.managedHooksOnly) lines.push("allow_managed_hooks_only = true");
    if (features === undefined) lines.push("features.hooks = true");
    lines.push(`hooks.managed_dir = ${JSON.stringify(options.policyDir)}`);
    for (const event of installer.defaultEvents) {
      const handler = codexHandler(event, { hookboxCommand: options.hookboxCommand, system: { root: options.root } });
      lines.push(`hooks.${event} = [{ hooks = [{ type = "command", command = ${JSON.stringify(handler.command)}, timeout = ${handler.timeout} }] }]`);
    }
    lines.push(END, "");
    const text = `${lines.join("\n")}${rest}`;
    parse(text, options.file);
    const notes =
      features !== undefined && features.hooks !== true
        ? ["! [features] is already in this file without hooks = true: a user's config can turn Codex's hooks off unless it says hooks = true"]
        : [];
    return {
      text,
      changed: text !== existing,
      summary: [
        ...(existing === undefined ? [`+ create ${options.file}`] : []),
        ...installer.defaultEvents.map((event) => `+ ${event}: managed hook`),
        ...(options.managedHooksOnly ? ["+ allow_managed_hooks_only = true"] : []),
        ...notes,
      ],
      added: [],
    };
  },
  planUninstall(existing) {
    if (existing === undefined) return { text: "", changed: false, summary: [] };
    const text = withoutBlock(existing);
    if (text === existing) return { text, changed: false, summary: [] };
    return {
      text,
      changed: true,
      summary: ["- Hookbox's managed hooks"],
      ...(text.trim() === "" ? { removesFile: true } : {}),
    };
  },
  holds:
    "Codex runs the managed requirements' hooks for every user without asking for trust, and no user or project setting disables them; with allow_managed_hooks_only (--managed-hooks-only) it runs no other hook.",
  cannot: [],
  checked: "Codex 0.169.0: /etc/codex/requirements.toml, [hooks] with managed_dir; run offline by test/e2e/system-tier-agents.test.ts",
};

function withoutBlock(text: string): string {
  const start = text.indexOf(BEGIN);
  if (start < 0) return text;
  const end = text.indexOf(END, start);
  if (end < 0) return text;
  const after = text.indexOf("\n", end);
  return text.slice(0, start) + (after < 0 ? "" : text.slice(after + 1));
}

function parse(text: string, file: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (error) {
    throw new HookboxError("config_invalid", `${file} is not valid TOML (${errorMessage(error).split("\n")[0]}): nothing was changed`);
  }
}
