import type { FileHost } from "../../../platform/index.ts";
import type { InstallAgent } from "../../table.ts";
import type { InstalledEntry } from "./entries.ts";

/** The agents `hookbox install-agent` knows how to configure: the agent table's rows with an installer. */
export type { InstallAgent } from "../../table.ts";

/** user: every project of this user; project: this repository (committable); local: this repository, this user only (Claude Code's settings.local.json). */
export type InstallScope = "user" | "project" | "local";
export const INSTALL_SCOPES: readonly InstallScope[] = ["user", "project", "local"];

export interface InstallDirs {
  readonly home: string;
  readonly project: string;
  /** The environment, for the agents' own config-directory variables (the table's configDir, XDG_CONFIG_HOME). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * The agent's user config directory as its table row's configDir resolves it here (its variable,
   * else its default under home): set by the installers' table (src/agents/installers.ts) for the
   * agents that have one, which is where their planners take it from.
   */
  readonly configDir?: string;
}

/** Claude Code's `type: "http"` hook pointed at the daemon's loopback listener. */
export interface HttpHookOptions {
  /** http://127.0.0.1:PORT (the path defaults to /v1/agents/claude). Loopback only: events carry code and prompts. */
  readonly url: string;
  /** Environment variable holding the bearer token; Claude interpolates it into the header (allowedEnvVars). */
  readonly tokenEnvVar?: string;
  /** A literal Authorization header value instead; stored in the settings file in plain text. */
  readonly header?: string;
}

export interface InstallOptions {
  /** The file's path, for messages ("/home/dev/.claude/settings.json: hooks.Stop must be a list"). */
  readonly file?: string;
  /** The scope the file is for, when known: some agents run a project's hooks only in a folder the user trusted (a note says so). */
  readonly scope?: InstallScope;
  /** The executable the agent runs, quoted when it holds spaces. The CLI passes the running binary's absolute path; bare `hookbox` (found on PATH) when absent. */
  readonly hookboxCommand?: string;
  /** Events to install: the agent's names or Hookbox's canonical ones. Default: every event the agent fires that Hookbox decodes. */
  readonly events?: readonly string[];
  /** Add --fail-closed to each `hookbox emit` (and the agent's own fail-closed flag where it has one). */
  readonly failClosed?: boolean;
  /** The system tier's entries (an agent's managed settings): `hookbox emit … --system`, under `root` when not / (tests). */
  readonly system?: { readonly root?: string };
  /** Claude only: POST events to the daemon instead of spawning `hookbox emit` (SessionStart stays a command: Claude runs no http hook there). */
  readonly http?: HttpHookOptions;
  /** Codex only: the caller records Codex's trust for the entries too (install-agent --trust), so no note asks the user to. */
  readonly trusting?: boolean;
  /** The build whose daemon the opencode plugin asks directly (its hook-set identity names the build); the running binary's BUILD_ID. */
  readonly buildId?: string;
}

export interface InstallPlan {
  /** The whole new file. Equal to the existing text when nothing changes. */
  readonly text: string;
  readonly changed: boolean;
  /** One line per event (+ added, ~ updated, - removed, = already there) and ! notes: what the command prints. */
  readonly summary: readonly string[];
  /** The file goes altogether (uninstalling a file that is Hookbox's own: opencode's plugin); `text` is then "". */
  readonly removesFile?: boolean;
}

/** One agent's config file: where it is and how Hookbox's entries merge into it. Pure: text in, text out. */
export interface InstallPlanner {
  readonly agent: InstallAgent;
  /** The agent's event names installed by default. */
  readonly defaultEvents: readonly string[];
  /** Where the agent keeps its hooks for `scope`; undefined when the agent has no such scope. */
  configPath(scope: InstallScope, dirs: InstallDirs): string | undefined;
  /**
   * It can POST events to the daemon itself (install-agent --http: `type: "http"` hooks); otherwise
   * it runs `hookbox emit`. `warning`: what install-agent --http warns of, how such hooks fail.
   */
  readonly http?: { readonly warning: string };
  /** What `hookbox install-agent --help` says of this agent besides the others: a paragraph, wrapped as help is. */
  readonly help?: string;
  /** Hookbox's entries in a file of this agent, when they are not JSON hook settings (opencode's plugin); absent: read as hook settings. */
  entries?(text: string, file: string): InstalledEntry[];
  /** Throws HookboxError("config_invalid") for a file it cannot safely rewrite, ("usage") for bad options. */
  planInstall(existingText: string | undefined, options?: InstallOptions): InstallPlan;
  /** The file without Hookbox's entries (and without the groups, lists and `hooks` that held only them); unchanged when it has none. */
  planUninstall(existingText: string | undefined, options?: Pick<InstallOptions, "file">): InstallPlan;
}

/** What an agent's extra install step did to a file of its own (Codex's config.toml): part of install-agent's --json output. */
export interface TrustChange {
  readonly file: string;
  readonly changed: boolean;
  readonly summary: readonly string[];
  readonly diff: string;
  readonly backup: string | null;
}

/** The files an agent's trust step reads and writes, handed in by the command: agents/ does no I/O of its own. */
export interface TrustIO {
  readonly fs: Pick<FileHost, "writeTextAtomic" | "mkdirp" | "mode" | "remove">;
  /** The file's text, undefined when there is none; a file_unreadable error naming `what` when it cannot be read. */
  readIfPresent(path: string, what: string): Promise<string | undefined>;
  /** A copy of `text` (the file `file` before a change) in Hookbox's data directory, 0600; its path. */
  backupInDataDir(file: string, text: string): Promise<string>;
}

/** One settings file of the agent and the directories it resolves in. */
export interface TrustTarget {
  /** The hook settings file (absolute, as the agent names it). */
  readonly file: string;
  readonly scope: InstallScope;
  readonly dirs: InstallDirs;
}

/**
 * An agent that runs only hooks the user has trusted, recorded outside the hook settings
 * (Codex, in its config.toml): install-agent --trust records that trust for exactly the entries it
 * wrote, uninstall-agent takes it out with them, doctor tells whether it is there.
 */
export interface AgentTrust {
  /** --trust's help: what it records, and where. */
  readonly help: string;
  /** What it records, for the error a --trust for another agent gets. */
  readonly records: string;
  record(io: TrustIO, target: TrustTarget, hooksText: string, options: InstallOptions, dryRun: boolean): Promise<TrustChange>;
  remove(io: TrustIO, target: TrustTarget, hooksText: string, dryRun: boolean): Promise<TrustChange & { readonly removed: boolean }>;
}
