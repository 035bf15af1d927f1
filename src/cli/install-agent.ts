import type { Command } from "commander";
import { HookboxError, errorMessage } from "../errors.ts";
import { unifiedDiff } from "../install/diff.ts";
import { chooseHookboxCommand } from "../install/hookbox-command.ts";
import { planInstall, planUninstall, type InstallOptions } from "../install/index.ts";
import { nextRecord } from "../install/record.ts";
import { agentSettingsCommand, parentDirectory, readIfPresent, readRecord, report, resolveTarget, writeBackup, writeRecord, type AgentSettingsTarget } from "./agent-settings.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";

function installOptions(file: string, hookboxCommand: string, options: Record<string, unknown>): InstallOptions {
  const events = typeof options.events === "string" ? options.events.split(",").map((name) => name.trim()).filter((name) => name !== "") : undefined;
  if (options.http === undefined && (options.tokenEnv !== undefined || options.authHeader !== undefined)) {
    throw new HookboxError("usage", "--token-env and --auth-header go with --http");
  }
  return {
    file,
    hookboxCommand,
    ...(events !== undefined && { events }),
    ...(options.failClosed === true && { failClosed: true }),
    ...(typeof options.http === "string" && {
      http: {
        url: options.http,
        ...(typeof options.tokenEnv === "string" && { tokenEnvVar: options.tokenEnv }),
        ...(typeof options.authHeader === "string" && { header: options.authHeader }),
      },
    }),
  };
}

/** The directories a new file needs that do not exist yet, outermost first: uninstall removes them again if empty. */
async function missingDirectories(ctx: CliContext, file: string): Promise<string[]> {
  const missing: string[] = [];
  for (let dir = parentDirectory(file); !(await ctx.host.fs.exists(dir)); dir = parentDirectory(dir)) {
    missing.unshift(dir);
    if (parentDirectory(dir) === dir) break;
  }
  return missing;
}

/** Backup, file, record. The record is best effort: without it uninstall removes Hookbox's entries instead of restoring the file byte for byte. */
export async function writeAgentSettings(ctx: CliContext, target: AgentSettingsTarget, existing: string | undefined, text: string, warnings: string[]): Promise<string | null> {
  const fs = ctx.host.fs;
  const previous = await readRecord(ctx, target);
  // Keep the config's own mode; a new one is 0644 like the agents write theirs.
  const mode = (await fs.mode(target.file)) ?? 0o644;
  const backup = existing === undefined ? null : await writeBackup(ctx, target, existing);
  const createdDirs = existing === undefined ? await missingDirectories(ctx, target.file) : [];
  if (createdDirs.length > 0) await fs.mkdirp(parentDirectory(target.file), 0o755);
  await fs.writeTextAtomic(target.file, text, mode);
  try {
    const existingWithoutHookbox = existing === undefined ? undefined : planUninstall(target.agent, existing, { file: target.file }).text;
    await writeRecord(ctx, target, await nextRecord(previous, { ...target, existingText: existing, existingWithoutHookbox, writtenText: text, createdDirs, now: new Date() }));
  } catch (error) {
    warnings.push(`could not record this install in ${target.dataDir}/installs (${errorMessage(error)}): uninstall-agent will remove Hookbox's entries instead of restoring the file byte for byte`);
  }
  return backup;
}

export function registerInstallAgent(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  agentSettingsCommand(program, "install-agent", "Add Hookbox to an agent's hook configuration, keeping every other hook, setting and comment (a backup of the old file is kept)")
    .option("--events <names>", "comma-separated events to install (the agent's names or Hookbox's); default: all Hookbox decodes")
    .option("--command <path>", "the hookbox executable the agent runs (default: the absolute path of this hookbox binary)")
    .option("--fail-closed", "block when Hookbox cannot evaluate, instead of the agent's fail-open default")
    .option("--http <url>", "Claude Code only: POST events to the daemon's loopback listener instead of spawning hookbox")
    .option("--token-env <name>", "with --http: the environment variable holding the daemon's bearer token")
    .option("--auth-header <value>", "with --http: a literal Authorization header value (stored in plain text)")
    .addHelpText(
      "after",
      `
Examples:
  hookbox install-agent claude --dry-run
  hookbox install-agent claude --local
  hookbox install-agent gemini --user --events BeforeTool,AfterTool
  hookbox install-agent claude --http http://127.0.0.1:8787 --token-env HOOKBOX_TOKEN

The entries run this binary by its absolute path: install it somewhere lasting first (not a
build directory or /tmp). Running it again changes nothing. Only entries that run
\`hookbox emit\` (or post to the daemon) are Hookbox's; nothing else is touched, comments
included. hookbox uninstall-agent takes them out again.`,
    )
    .action(async (agent: string, options: Record<string, unknown>) => {
      const target = await resolveTarget(ctx, agent, options);
      const command = await chooseHookboxCommand(typeof options.command === "string" ? options.command : undefined, {
        cwd: ctx.host.cwd(),
        env: ctx.host.env,
        binaryPath: ctx.host.binaryPath(),
        runtime: ctx.host.name,
        exists: (path) => ctx.host.fs.exists(path),
      });
      const existing = await readIfPresent(ctx, target.file, `the ${agent} config`);
      const plan = planInstall(target.agent, existing, installOptions(target.file, command.path, options));
      const warnings = [...command.warnings];
      const dryRun = options.dryRun === true;
      const backup = plan.changed && !dryRun ? await writeAgentSettings(ctx, target, existing, plan.text, warnings) : null;
      const change = {
        agent: target.agent,
        scope: target.scope,
        file: target.file,
        changed: plan.changed,
        dry_run: dryRun,
        created: plan.changed && existing === undefined,
        command: command.path,
        summary: plan.summary,
        diff: plan.changed ? unifiedDiff(target.file, existing, plan.text) : "",
        backup,
        warnings,
      };
      await report(ctx, change, options.json === true, [...(backup === null ? [] : [`backup: ${backup}`]), "written"]);
      setExit(EXIT.ok);
    });
}
