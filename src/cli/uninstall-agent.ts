import type { Command } from "commander";
import { unifiedDiff } from "../agents/shared/install/diff.ts";
import { planUninstall } from "../agents/installers.ts";
import { recordIfUntouched } from "../agents/shared/install/record.ts";
import { HookboxError } from "../core/errors.ts";
import { findProjectRoot } from "../decide/project.ts";
import { INSTALL_SCOPES, INSTALLERS, isInstallAgent, INSTALL_AGENTS, trustOf, type InstallScope, type TrustChange } from "../agents/installers.ts";
import { displayName } from "../agents/table.ts";
import {
  agentSettingsCommand,
  readIfPresent,
  readRecord,
  report,
  resolveTarget,
  scopeGiven,
  scopesHoldingHookbox,
  targetOf,
  trustStep,
  uninstallCommand,
  writeBackup,
  writeRecord,
  type AgentSettingsTarget,
  type ScopeHolding,
  type SettingsChange,
} from "./agent-settings.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";

/** What the file becomes: its text, or undefined when it goes (install created it). */
interface Removal {
  readonly after: string | undefined;
  readonly method: "restored" | "entries_removed" | "none";
  readonly summary: readonly string[];
  /** Directories install created for the file, to remove again if empty (deepest first). */
  readonly dirs: readonly string[];
}

async function planRemoval(ctx: CliContext, target: AgentSettingsTarget, current: string | undefined): Promise<Removal> {
  const structural = planUninstall(target.agent, current, { file: target.file });
  const record = await recordIfUntouched(await readRecord(ctx, target), current);
  if (record !== undefined) {
    // Nothing but Hookbox changed the file since it wrote it: put it back exactly as it was.
    const after = record.before ?? undefined;
    const summary = [
      ...structural.summary,
      after === undefined
        ? "- the file: install-agent created it, so it goes"
        : "= everything else: restored byte for byte as it was before install-agent",
    ];
    return { after, method: "restored", summary, dirs: after === undefined ? [...record.created_dirs].reverse() : [] };
  }
  return {
    after: structural.removesFile ? undefined : structural.changed ? structural.text : current,
    method: structural.changed ? "entries_removed" : "none",
    summary: structural.summary,
    dirs: [],
  };
}

/** Write or remove the file (after a backup), then the directories install created, then the record. */
async function apply(
  ctx: CliContext,
  target: AgentSettingsTarget,
  current: string,
  removal: Removal,
): Promise<{ backup: string; removedDirs: string[] }> {
  const fs = ctx.host.fs;
  const backup = await writeBackup(ctx, target, current, { inDataDir: removal.after === undefined });
  if (removal.after === undefined) await fs.remove(target.file);
  else await fs.writeTextAtomic(target.file, removal.after, (await fs.mode(target.file)) ?? 0o644);
  const removedDirs: string[] = [];
  for (const dir of removal.dirs) {
    if (await fs.removeEmptyDir(dir)) removedDirs.push(dir);
    else break;
  }
  await writeRecord(ctx, target, undefined);
  return { backup, removedDirs };
}

/** What uninstalling from one file did (or would do, with --dry-run): the --json object, snake_case. */
export interface UninstallChange extends SettingsChange {
  readonly method: Removal["method"];
  readonly removed_file: boolean;
  readonly removed_dirs: readonly string[];
  /** An agent with a trust step (install-agent --trust): the trust taken out with Hookbox's entries. */
  readonly trust?: TrustChange;
}

/**
 * Hookbox's entries out of one agent's file: restored byte for byte from the install record when
 * nothing else changed the file since, else only Hookbox's entries removed; a backup first.
 */
export async function uninstallFrom(
  ctx: CliContext,
  target: AgentSettingsTarget,
  dryRun: boolean,
): Promise<{ change: UninstallChange; outcome: string[] }> {
  const current = await readIfPresent(ctx, target.file, `the ${target.agent} config`);
  const removal = await planRemoval(ctx, target, current);
  const changed = current !== undefined && removal.method !== "none";
  // The trust install-agent --trust recorded for these entries goes with them (first: it may be
  // the last file in a directory install created, which apply then removes).
  const trustStepOf = changed ? trustOf(target.agent) : undefined;
  const step = trustStep(ctx, target);
  const trust = trustStepOf && current !== undefined ? await trustStepOf.remove(step.io, step.target, current, dryRun) : undefined;
  const done = changed && !dryRun ? await apply(ctx, target, current, removal) : { backup: null, removedDirs: [] };
  // A record of a file that is gone is stale.
  if (current === undefined && !dryRun) await writeRecord(ctx, target, undefined);
  const change: UninstallChange = {
    agent: target.agent,
    scope: target.scope,
    file: target.file,
    changed,
    dry_run: dryRun,
    method: changed ? removal.method : "none",
    removed_file: changed && removal.after === undefined,
    removed_dirs: done.removedDirs,
    summary: [
      ...(current === undefined ? ["= the file does not exist: nothing to remove"] : removal.summary),
      ...(trust?.changed ? [`${trust.file} (${displayName(target.agent)}'s trust):`, ...trust.summary.map((line) => `  ${line}`)] : []),
    ],
    diff: `${changed ? unifiedDiff(target.file, current, removal.after) : ""}${trust?.diff ?? ""}`,
    backup: done.backup,
    warnings: [],
    ...(trust?.changed ? { trust } : {}),
  };
  const outcome = [
    `backup: ${done.backup}`,
    removal.after === undefined ? `removed ${target.file}` : "written",
    ...(trust?.changed && !dryRun
      ? [trust.removed ? `removed ${trust.file} (it held only Hookbox's trust)` : `Hookbox's trust taken out of ${trust.file}`]
      : []),
    ...done.removedDirs.map((dir) => `removed the empty directory ${dir}`),
  ];
  return { change, outcome };
}

/** The scopes of this project (project, and Claude Code's local) the agent has. */
function projectScopes(agent: keyof typeof INSTALLERS): InstallScope[] {
  return INSTALL_SCOPES.filter((scope) => scope !== "user" && INSTALLERS[agent].configPath(scope, { home: "/", project: "/" }) !== undefined);
}

/**
 * Which files to take Hookbox out of: the scope asked for; without one, every scope of this
 * project that holds Hookbox's entries (the project's file, and Claude Code's local one), or the
 * project's when none does. The user scope reaches every project: only --user touches it.
 */
async function targetsOf(
  ctx: CliContext,
  agent: string,
  options: Record<string, unknown>,
): Promise<{ targets: AgentSettingsTarget[]; holding: ScopeHolding[] }> {
  if (scopeGiven(options)) {
    const target = await resolveTarget(ctx, agent, options);
    return { targets: [target], holding: await scopesHoldingHookbox(ctx, target.agent, target.project) };
  }
  if (!isInstallAgent(agent)) throw new HookboxError("usage", `unknown agent "${agent}": use one of ${INSTALL_AGENTS.join(", ")}`);
  const project = await findProjectRoot(ctx.host.fs, ctx.host.cwd(), ctx.host.homeDir());
  const holding = await scopesHoldingHookbox(ctx, agent, project);
  const here = projectScopes(agent).filter((scope) => holding.some((held) => held.scope === scope));
  return { targets: (here.length > 0 ? here : ["project" as const]).map((scope) => targetOf(ctx, agent, scope, project)), holding };
}

export function registerUninstallAgent(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  agentSettingsCommand(
    program,
    "uninstall-agent",
    "Remove Hookbox's entries from an agent's hook configuration, and nothing else (a backup of the old file is kept)",
  )
    .addHelpText(
      "after",
      `
Examples:
  hookbox uninstall-agent claude               # this project: .claude/settings.json and settings.local.json
  hookbox uninstall-agent claude --dry-run
  hookbox uninstall-agent gemini --user

Without --user, --project or --local it takes Hookbox out of every file of this project that
holds its entries (Claude Code: .claude/settings.json and .claude/settings.local.json); the
user-wide file reaches every project, so only --user changes it, and it says when Hookbox is
still there. hookbox self-uninstall takes Hookbox out of every file install-agent wrote.

When nothing but Hookbox changed the file since install-agent wrote it, the file is restored
byte for byte (and removed, with the directories install-agent created, when it created them).
Otherwise only Hookbox's entries go (those that run \`hookbox emit\` or post to the daemon),
with the groups and lists that held nothing else.`,
    )
    .action(async (agent: string, options: Record<string, unknown>) => {
      const { targets, holding } = await targetsOf(ctx, agent, options);
      const name = (targets[0] as AgentSettingsTarget).agent;
      const dryRun = options.dryRun === true;
      const results = [];
      for (const target of targets) results.push(await uninstallFrom(ctx, target, dryRun));
      const done = new Set(targets.map((target) => target.file));
      const remaining = holding.filter((held) => !done.has(held.file));
      const notes = remaining.map(
        (held) =>
          `Hookbox's entries are still in ${held.file} (${name}, ${held.scope}${held.scope === "user" ? ": every project" : ""}): ${uninstallCommand(name, held.scope)} removes them`,
      );
      if (options.json === true) {
        const [first, ...others] = results.map((result) => result.change);
        await ctx.out(
          `${JSON.stringify({ ...first, other_scopes: others, still_installed: remaining.map((held) => ({ scope: held.scope, file: held.file, entries: held.entries, command: uninstallCommand(name, held.scope) })) })}\n`,
        );
      } else {
        for (const result of results) await report(ctx, result.change, false, result.outcome);
        for (const note of notes) await ctx.out(`note: ${note}\n`);
      }
      setExit(EXIT.ok);
    });
}
