import type { Command } from "commander";
import { unifiedDiff } from "../install/diff.ts";
import { planUninstall } from "../install/index.ts";
import { recordIfUntouched } from "../install/record.ts";
import { agentSettingsCommand, readIfPresent, readRecord, report, resolveTarget, writeBackup, writeRecord, type AgentSettingsTarget } from "./agent-settings.ts";
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
    const summary = [...structural.summary, after === undefined ? "- the file: install-agent created it, so it goes" : "= everything else: restored byte for byte as it was before install-agent"];
    return { after, method: "restored", summary, dirs: after === undefined ? [...record.created_dirs].reverse() : [] };
  }
  return { after: structural.removesFile ? undefined : structural.changed ? structural.text : current, method: structural.changed ? "entries_removed" : "none", summary: structural.summary, dirs: [] };
}

/** Write or remove the file (after a backup), then the directories install created, then the record. */
async function apply(ctx: CliContext, target: AgentSettingsTarget, current: string, removal: Removal): Promise<{ backup: string; removedDirs: string[] }> {
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

export function registerUninstallAgent(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  agentSettingsCommand(program, "uninstall-agent", "Remove Hookbox's entries from an agent's hook configuration, and nothing else (a backup of the old file is kept)")
    .addHelpText(
      "after",
      `
Examples:
  hookbox uninstall-agent claude --dry-run
  hookbox uninstall-agent gemini --user

When nothing but Hookbox changed the file since install-agent wrote it, the file is restored
byte for byte (and removed, with the directories install-agent created, when it created them).
Otherwise only Hookbox's entries go (those that run \`hookbox emit\` or post to the daemon),
with the groups and lists that held nothing else.`,
    )
    .action(async (agent: string, options: Record<string, unknown>) => {
      const target = await resolveTarget(ctx, agent, options);
      const current = await readIfPresent(ctx, target.file, `the ${agent} config`);
      const removal = await planRemoval(ctx, target, current);
      const changed = current !== undefined && removal.method !== "none";
      const dryRun = options.dryRun === true;
      const done = changed && !dryRun ? await apply(ctx, target, current, removal) : { backup: null, removedDirs: [] };
      // A record of a file that is gone is stale.
      if (current === undefined && !dryRun) await writeRecord(ctx, target, undefined);
      const change = {
        agent: target.agent,
        scope: target.scope,
        file: target.file,
        changed,
        dry_run: dryRun,
        method: changed ? removal.method : "none",
        removed_file: changed && removal.after === undefined,
        removed_dirs: done.removedDirs,
        summary: current === undefined ? ["= the file does not exist: nothing to remove"] : removal.summary,
        diff: changed ? unifiedDiff(target.file, current, removal.after) : "",
        backup: done.backup,
        warnings: [],
      };
      const outcome = [`backup: ${done.backup}`, removal.after === undefined ? `removed ${target.file}` : "written", ...done.removedDirs.map((dir) => `removed the empty directory ${dir}`)];
      await report(ctx, change, options.json === true, outcome);
      setExit(EXIT.ok);
    });
}
