// src/cli/self-uninstall owns `hookbox self-uninstall`; it must not import an entry point (src/main.ts …).
// Everything Hookbox put on this account, found (plan.ts) and undone (apply.ts) from its install records and the places it writes.
import type { Command } from "commander";
import { HookboxError } from "../../core/errors.ts";
import type { CliContext } from "../context.ts";
import { EXIT } from "../exit-codes.ts";
import { locationsFrom } from "../setup.ts";
import type { UninstallChange } from "../uninstall-agent.ts";
import { applyUninstall, type UninstallReport } from "./apply.ts";
import { planUninstall, type UninstallPlan } from "./plan.ts";

interface Options {
  readonly dryRun?: boolean;
  readonly purge?: boolean;
  readonly yes?: boolean;
  readonly json?: boolean;
}

function isEmpty(plan: UninstallPlan): boolean {
  return (
    plan.agents.length +
      plan.daemons.length +
      plan.runtimeDirs.length +
      plan.runtimeFiles.length +
      plan.profiles.length +
      plan.binaries.length +
      plan.createdFiles.length ===
    0
  );
}

function agentOutcome(change: UninstallChange): string {
  const entries = change.summary.filter((line) => /^- \S+: removed `/.test(line) || /^- \S+: removed the POST/.test(line)).length;
  const what = entries > 0 ? `${entries} entr${entries === 1 ? "y" : "ies"}` : "Hookbox's entries";
  if (change.removed_file) return `${what}; the file goes (install-agent created it)`;
  return change.method === "restored"
    ? `${what}; the file restored byte for byte as it was before install-agent`
    : `${what} removed, the rest of the file kept`;
}

function section(title: string, rows: readonly string[]): string[] {
  return rows.length === 0 ? [] : [title, ...rows.map((row) => `  ${row}`)];
}

/** The report as text: what goes (or went), what stays and why. */
export function formatUninstall(report: UninstallReport, home: string, asking = false): string {
  const short = (path: string): string => (path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path);
  // A backup in a directory --purge removed is gone with it.
  const kept = (backup: string | null): string =>
    backup === null || report.purged.some((entry) => backup.startsWith(`${entry.path}/`)) ? "" : `; backup: ${short(backup)}`;
  const agents = report.agents
    .filter((change) => change.changed)
    .map((change) => `${short(change.file)} (${change.agent}, ${change.scope}): ${agentOutcome(change)}${kept(change.backup)}`);
  const lines = [
    ...section("Hookbox's entries in the agents' settings (install-agent):", agents),
    ...section(
      "daemons:",
      report.daemons.map((daemon) => `pid ${daemon.pid} on ${daemon.socket}${report.dry_run ? "" : daemon.stopped ? ": stopped" : ": not stopped"}`),
    ),
    ...section("the daemons' sockets:", report.runtime.map(short)),
    ...section(
      "shell startup files (self-install put the binary's directory on PATH there):",
      report.profiles.map(
        (profile) =>
          `${short(profile.file)}: ${profile.lines_removed} marked line${profile.lines_removed === 1 ? "" : "s"}${profile.removed_file ? " (self-install created the file: it goes)" : ""}${kept(profile.backup)}`,
      ),
    ),
    ...section(
      "files Hookbox created for you, unchanged since:",
      report.created_files.map((file) => `${short(file.file)}  (${file.what})${kept(file.backup)}`),
    ),
    ...section("the binary:", report.binaries.map(short)),
    ...section(
      "with --purge, removed too:",
      report.purged.map((entry) => `${short(entry.path)}  (${entry.what})`),
    ),
    ...section(
      "kept (your config and data; hookbox self-uninstall --purge, or rm -r, removes them):",
      report.kept.map((entry) => `${short(entry.path)}  (${entry.what})`),
    ),
    ...section(
      "left alone:",
      report.left.map((entry) => `${short(entry.path)}: ${entry.why}`),
    ),
    ...section("not done:", report.problems),
  ];
  const head = asking
    ? "hookbox self-uninstall removes:"
    : report.dry_run
      ? "hookbox self-uninstall would remove (dry run: nothing changed):"
      : report.problems.length > 0
        ? "Hookbox is partly removed from this account:"
        : "Hookbox is removed from this account:";
  return `${[head, ...lines].join("\n")}\n`;
}

async function confirmed(ctx: CliContext, options: Options): Promise<void> {
  if (options.yes === true) return;
  if (options.json === true || !ctx.host.stdinIsTTY()) {
    throw new HookboxError(
      "consent_required",
      "nothing was changed: there is no terminal to ask. To remove Hookbox, run again with --yes (--dry-run shows what goes)",
    );
  }
  ctx.err(`Remove Hookbox as listed above${options.purge ? ", config and data included" : ""}? [y/N] `);
  const answer = (await ctx.host.readStdinLine(200))?.trim().toLowerCase();
  if (answer !== "y" && answer !== "yes") throw new HookboxError("consent_required", "nothing was changed (not confirmed)");
}

export function registerSelfUninstall(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command("self-uninstall")
    .description(
      "Remove Hookbox from this account: its entries in every agent's settings it was installed into, the daemons, startup-file lines, the binary (--purge: config and data too)",
    )
    .option("--dry-run", "list everything it would change; change nothing")
    .option(
      "--purge",
      "also remove the config (~/.config/hookbox: the operator file, your hooks, packages) and the data (~/.local/share/hookbox: audit log, stores, backups)",
    )
    .option("-y, --yes", "do not ask (needed without a terminal)")
    .option("--json", "print the report as one JSON object (needs --yes or --dry-run)")
    .addHelpText(
      "after",
      `
Examples:
  hookbox self-uninstall --dry-run
  hookbox self-uninstall
  hookbox self-uninstall --purge --yes

What it undoes, from the records install-agent and self-install keep in the data directory:
every agent settings file install-agent wrote (restored byte for byte when nothing else changed
it, else only Hookbox's entries removed; a backup kept, as uninstall-agent does), Hookbox's
entries in every agent's user-wide settings, the lines self-install added to shell startup
files, the daemons and their sockets, files Hookbox created for you and you have not changed
since (install-agent's operator file with the default guards), and the binary (the one running, and each copy
self-install made). Without --purge the config and data stay, and it says where they are. It
never touches a project's .hookbox/ (your hooks), nor lines you wrote yourself: it names those.`,
    )
    .action(async (options: Options) => {
      const plan = await planUninstall(ctx, locationsFrom(ctx, {}));
      const dryRun = options.dryRun === true;
      const purge = options.purge === true;
      const preview = await applyUninstall(ctx, plan, { dryRun: true, purge });
      if (dryRun || (isEmpty(plan) && (!purge || plan.purge.length === 0))) {
        await ctx.out(
          options.json
            ? `${JSON.stringify(preview)}\n`
            : isEmpty(plan) && !dryRun
              ? "Hookbox has nothing installed on this account.\n"
              : formatUninstall(preview, ctx.host.homeDir()),
        );
        setExit(EXIT.ok);
        return;
      }
      if (options.yes !== true && options.json !== true) await ctx.out(formatUninstall(preview, ctx.host.homeDir(), true));
      await confirmed(ctx, options);
      const report = await applyUninstall(ctx, plan, { dryRun: false, purge });
      await ctx.out(options.json ? `${JSON.stringify(report)}\n` : formatUninstall(report, ctx.host.homeDir()));
      setExit(report.problems.length > 0 ? EXIT.internal : EXIT.ok);
    });
}
