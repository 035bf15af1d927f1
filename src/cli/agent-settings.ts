import type { Command } from "commander";
import { HookboxError } from "../core/errors.ts";
import { findProjectRoot } from "../decide/project.ts";
import {
  INSTALL_AGENTS,
  INSTALL_SCOPES,
  INSTALLERS,
  configPath,
  installDirs,
  installedEntries,
  isInstallAgent,
  scopeOwners,
  type InstallAgent,
  type InstallScope,
  type TrustIO,
} from "../agents/installers.ts";
import { AGENT_CONFIG_DIRS } from "../agents/config-dirs.ts";
import type { TrustTarget } from "../agents/shared/install/types.ts";
import { parseRecord, recordPath, type InstallRecordV1 } from "../agents/shared/install/record.ts";
import { readTextFile, type CliContext } from "./context.ts";
import { locationsFrom } from "./setup.ts";

/** One agent's config file for one scope, and where Hookbox keeps its record of it. */
export interface AgentSettingsTarget {
  readonly agent: InstallAgent;
  readonly scope: InstallScope;
  readonly file: string;
  readonly dataDir: string;
  /** The project's root (where a project-scope file is). */
  readonly project: string;
}

/** What install-agent and uninstall-agent did (or would do, with --dry-run): the --json output, snake_case. */
export interface SettingsChange {
  readonly agent: InstallAgent;
  readonly scope: InstallScope;
  readonly file: string;
  readonly changed: boolean;
  readonly dry_run: boolean;
  readonly summary: readonly string[];
  /** Unified diff of the file; "" when nothing changes. */
  readonly diff: string;
  readonly backup: string | null;
  readonly warnings: readonly string[];
  readonly [detail: string]: unknown;
}

/** The agents with a local scope (a project's settings of this user only), and where it is. */
const LOCAL = scopeOwners("local");

/** `hookbox <name> <agent>` with the options install-agent and uninstall-agent share: the scope, --dry-run, --json. */
export function agentSettingsCommand(program: Command, name: string, description: string): Command {
  return program
    .command(name)
    .description(description)
    .argument("<agent>", INSTALL_AGENTS.join(" | "))
    .option(
      "--project",
      "this project's config file, committable (install-agent's default; uninstall-agent without a scope takes every file of this project)",
    )
    .option("--user", `the user-wide config file (${AGENT_CONFIG_DIRS.map(({ displayName, env }) => `${displayName}: $${env}`).join(", ")} when set)`)
    .option(
      "--local",
      `${LOCAL.map((owner) => owner.displayName).join(" and ")} only: this project's ${LOCAL.map((owner) => owner.path).join(" or ")}, not committed`,
    )
    .option("--dry-run", "print what would change, as a unified diff; write nothing")
    .option("--json", "print the result as one JSON object");
}

function scopeOf(options: Record<string, unknown>): InstallScope {
  const chosen = (["user", "project", "local"] as const).filter((scope) => options[scope] === true);
  if (chosen.length > 1) throw new HookboxError("usage", `${chosen.map((scope) => `--${scope}`).join(" and ")} exclude each other`);
  return chosen[0] ?? "project";
}

/**
 * The settings file for an agent and scope. A project's is at its root (the nearest .hookbox/ or
 * .git above the working directory), wherever in the project the command is run: where the
 * agent started at the root reads it, and where the hooks' own project is resolved.
 */
export async function resolveTarget(ctx: CliContext, agent: string, options: Record<string, unknown>): Promise<AgentSettingsTarget> {
  if (!isInstallAgent(agent)) throw new HookboxError("usage", `unknown agent "${agent}": use one of ${INSTALL_AGENTS.join(", ")}`);
  const project = await findProjectRoot(ctx.host.fs, ctx.host.cwd(), ctx.host.homeDir());
  return targetOf(ctx, agent, scopeOf(options), project);
}

/** The target for one scope; a usage error for a scope the agent does not have. */
export function targetOf(ctx: CliContext, agent: InstallAgent, scope: InstallScope, project: string): AgentSettingsTarget {
  const file = configPath(agent, scope, { home: ctx.host.homeDir(), project, env: ctx.host.env });
  return { agent, scope, file, dataDir: locationsFrom(ctx, {}).dataDir, project };
}

/** Whether a scope flag was given (else install-agent takes the project scope, uninstall-agent every scope of the project). */
export function scopeGiven(options: Record<string, unknown>): boolean {
  return INSTALL_SCOPES.some((scope) => options[scope] === true);
}

/** One scope of an agent where Hookbox's entries are. */
export interface ScopeHolding {
  readonly scope: InstallScope;
  readonly file: string;
  readonly entries: number;
}

/**
 * Every scope of the agent (user, project, local) whose file holds Hookbox's entries: agents run
 * the hooks of all their scopes together, so entries in two of them evaluate each event twice.
 * A file that cannot be read or parsed is left out (doctor reports it).
 */
export async function scopesHoldingHookbox(ctx: CliContext, agent: InstallAgent, project: string): Promise<ScopeHolding[]> {
  const found: ScopeHolding[] = [];
  const seen = new Set<string>();
  for (const scope of INSTALL_SCOPES) {
    const file = INSTALLERS[agent].configPath(scope, { home: ctx.host.homeDir(), project, env: ctx.host.env });
    if (file === undefined || seen.has(file)) continue;
    seen.add(file);
    try {
      const text = await readIfPresent(ctx, file, `the ${agent} config`);
      const entries = text === undefined ? 0 : installedEntries(agent, text, file).length;
      if (entries > 0) found.push({ scope, file, entries });
    } catch {
      continue;
    }
  }
  return found;
}

/** What an agent's trust step (install-agent --trust) is given: this file and its directories, and the files it may touch. */
export function trustStep(ctx: CliContext, target: AgentSettingsTarget): { io: TrustIO; target: TrustTarget } {
  return {
    io: {
      fs: ctx.host.fs,
      readIfPresent: (path, what) => readIfPresent(ctx, path, what),
      backupInDataDir: (file, text) => writeBackup(ctx, { ...target, file }, text, { inDataDir: true }),
    },
    target: {
      file: target.file,
      scope: target.scope,
      dirs: installDirs(target.agent, { home: ctx.host.homeDir(), project: target.project, env: ctx.host.env }),
    },
  };
}

/** The command that takes Hookbox's entries out of one scope. */
export function uninstallCommand(agent: InstallAgent, scope: InstallScope): string {
  return `hookbox uninstall-agent ${agent} --${scope}`;
}

export async function readIfPresent(ctx: CliContext, path: string, what: string): Promise<string | undefined> {
  return (await ctx.host.fs.exists(path)) ? readTextFile(ctx, path, what) : undefined;
}

export async function readRecord(ctx: CliContext, target: AgentSettingsTarget): Promise<InstallRecordV1 | undefined> {
  const path = await recordPath(target.dataDir, target.file);
  return parseRecord(await readIfPresent(ctx, path, "the install record").catch(() => undefined), target.file);
}

/** Private (0600, in a 0700 directory): the record holds the user's own config text. */
export async function writeRecord(ctx: CliContext, target: AgentSettingsTarget, record: InstallRecordV1 | undefined): Promise<void> {
  const path = await recordPath(target.dataDir, target.file);
  if (record === undefined) {
    await ctx.host.fs.remove(path);
    return;
  }
  await ctx.host.fs.mkdirp(`${target.dataDir}/installs`, 0o700, true);
  await ctx.host.fs.writeTextAtomic(path, `${JSON.stringify(record, null, 2)}\n`, 0o600);
}

/**
 * A copy of the file's text before a change, 0600 (configs may hold secrets): beside the file,
 * or, for a file that is about to be removed, in the data directory (so the directory it was in
 * can go too).
 */
export async function writeBackup(ctx: CliContext, target: AgentSettingsTarget, text: string, { inDataDir = false } = {}): Promise<string> {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const name = target.file.slice(Math.max(target.file.lastIndexOf("/"), target.file.lastIndexOf("\\")) + 1);
  const dir = `${target.dataDir}/backups`;
  const path = inDataDir ? `${dir}/${target.agent}-${target.scope}-${name}.hookbox-backup-${stamp}` : `${target.file}.hookbox-backup-${stamp}`;
  if (inDataDir) await ctx.host.fs.mkdirp(dir, 0o700, true);
  await ctx.host.fs.writeTextAtomic(path, text, 0o600);
  return path;
}

export function parentDirectory(path: string): string {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return cut <= 0 ? path.slice(0, cut + 1) || "." : path.slice(0, cut);
}

/** The text report: the file, one line per change, the notes; the diff on --dry-run. Warnings go to stderr. */
export async function report(ctx: CliContext, change: SettingsChange, json: boolean, outcome: readonly string[]): Promise<void> {
  if (json) {
    await ctx.out(`${JSON.stringify(change)}\n`);
    return;
  }
  for (const warning of change.warnings) ctx.err(`warning: ${warning}\n`);
  const lines = [`${change.file} (${change.agent}, ${change.scope})`, ...change.summary.map((line) => `  ${line}`)];
  if (change.dry_run) lines.push(change.changed ? "(dry run: nothing written)" : "(dry run) nothing to change");
  else lines.push(...(change.changed ? outcome : ["nothing to change"]));
  await ctx.out(`${lines.join("\n")}\n${change.dry_run && change.diff !== "" ? change.diff : ""}`);
}
