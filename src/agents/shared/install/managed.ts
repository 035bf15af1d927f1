import { isJsonObject } from "./json-value.ts";
import { planJsonConfig, type JsonDialect } from "./plan.ts";
import type { InstallAgent, InstallOptions, InstallPlan, InstallPlanner } from "./types.ts";

/**
 * An agent's managed (or system-level) settings: the file an administrator writes, that the
 * agent reads before or over its users' and projects' settings, and that `hookbox install
 * --system` points at the root-owned binary. One per agent that has one (src/agents/managed.ts).
 */
export interface ManagedSettings {
  readonly agent: InstallAgent;
  /** What the agent calls it, for messages. */
  readonly label: string;
  /** Where the agent reads it on Linux, under `root` ("/" on a real install). */
  path(root: string): string;
  /** Directories the file names that must exist for the agent to use it (Codex's managed_dir). */
  requiredDirs?(paths: { readonly policyDir: string }): readonly string[];
  planInstall(existing: string | undefined, options: ManagedOptions): ManagedPlan;
  /** Without Hookbox's entries, and without the settings `added` says Hookbox put there. */
  planUninstall(existing: string | undefined, options: ManagedOptions, added: readonly string[]): InstallPlan;
  /** What the tier holds for this agent, in one sentence: doctor, install --system and SECURITY.md say it. */
  readonly holds: string;
  /** What it cannot hold (the agent's own design), one sentence each. */
  readonly cannot: readonly string[];
  /** How the location and format were checked. */
  readonly checked: string;
  /** The commands of Hookbox's entries in the file (doctor); default: the installer's reading of its entries. */
  entryCommands?(text: string, file: string): readonly string[];
  /** An environment variable of the user's that points the agent at another system file (doctor says when it is set). */
  readonly movedBy?: string;
  /** What the user's own settings do against these entries where doctor can see it (Gemini CLI's hooksConfig.disabled). */
  userOverrides?(read: (path: string) => Promise<string | undefined>, dirs: { readonly home: string; readonly project: string }): Promise<string[]>;
}

export interface ManagedOptions {
  /** The root-owned binary the entries run. */
  readonly hookboxCommand: string;
  /** The system tier's root (entries carry --system-root when it is not /). */
  readonly root: string;
  readonly file: string;
  /** Also make the agent ignore every hook but the managed ones, where it can (install --system --managed-hooks-only). */
  readonly managedHooksOnly: boolean;
  /** Where the system policy lives (Codex's managed_dir points there). */
  readonly policyDir: string;
}

export interface ManagedPlan extends InstallPlan {
  /** Settings outside the hooks Hookbox set (dotted paths): uninstall takes them out again unless the file is restored whole. */
  readonly added: readonly string[];
}

/** Settings besides the hooks a managed JSON file needs, by dotted path (hooksConfig.enabled: true). */
export type ManagedKeys = (options: ManagedOptions) => Readonly<Record<string, unknown>>;

/** Lenient: the agent's own dialect note was made by its installer's pass already. */
const ANY_JSON: JsonDialect = { comments: undefined, trailingCommas: undefined, whenInvalid: "" };

/**
 * A managed settings file in the same JSON format as the agent's user settings: the agent's own
 * installer merges the entries (with --system), then the keys the tier needs are set.
 */
export function jsonManagedSettings(
  spec: Omit<ManagedSettings, "planInstall" | "planUninstall"> & { readonly installer: InstallPlanner; readonly keys?: ManagedKeys },
): ManagedSettings {
  const { installer, keys, ...rest } = spec;
  const installOptions = (options: ManagedOptions): InstallOptions => ({
    file: options.file,
    hookboxCommand: options.hookboxCommand,
    system: { root: options.root },
  });
  return {
    ...rest,
    planInstall(existing, options) {
      const hooks = installer.planInstall(existing, installOptions(options));
      const wanted = keys?.(options) ?? {};
      const added: string[] = [];
      const set = editKeys(hooks.text, options.file, true, (root) =>
        Object.entries(wanted).flatMap(([path, value]) => {
          if (JSON.stringify(getPath(root, path)) === JSON.stringify(value)) return [];
          setPath(root, path, value);
          added.push(path);
          return [`+ "${path}": ${JSON.stringify(value)}`];
        }),
      );
      return { text: set.text, changed: set.text !== existing, summary: [...hooks.summary, ...set.summary], added };
    },
    planUninstall(existing, options, added) {
      const without = installer.planUninstall(existing, { file: options.file });
      if (added.length === 0 || without.removesFile) return without;
      const unset = editKeys(without.text, options.file, false, (root) => added.flatMap((path) => (deletePath(root, path) ? [`- "${path}"`] : [])));
      return { ...unset, changed: unset.text !== existing, summary: [...without.summary, ...unset.summary] };
    },
  };
}

/** The settings file with `edit` applied to its JSON root; `edit` returns a summary line per change. */
function editKeys(text: string | undefined, file: string, creates: boolean, edit: (root: Record<string, unknown>) => string[]): InstallPlan {
  return planJsonConfig(
    text,
    file,
    ANY_JSON,
    (root) => {
      const summary = edit(root);
      return { summary, mutated: summary.length > 0 };
    },
    { creates },
  );
}

function getPath(root: Record<string, unknown>, path: string): unknown {
  let at: unknown = root;
  for (const key of path.split(".")) at = isJsonObject(at) ? at[key] : undefined;
  return at;
}

function setPath(root: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  let at = root;
  for (const key of keys.slice(0, -1)) {
    if (!isJsonObject(at[key])) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[keys.at(-1) as string] = value;
}

/** Remove the key; then its parents left empty. True when something was removed. */
function deletePath(root: Record<string, unknown>, path: string): boolean {
  const keys = path.split(".");
  const chain: Record<string, unknown>[] = [root];
  for (const key of keys.slice(0, -1)) {
    const next = chain.at(-1)?.[key];
    if (!isJsonObject(next)) return false;
    chain.push(next);
  }
  const last = chain.at(-1) as Record<string, unknown>;
  if (!Object.hasOwn(last, keys.at(-1) as string)) return false;
  delete last[keys.at(-1) as string];
  for (let i = chain.length - 1; i > 0; i--) {
    if (Object.keys(chain[i] as object).length > 0) break;
    delete (chain[i - 1] as Record<string, unknown>)[keys[i - 1] as string];
  }
  return true;
}
