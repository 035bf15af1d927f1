// src/cli/system-install owns `hookbox install --system` and `uninstall --system`; it must not import an entry point.
// The tier the operating system enforces — the binary, the system policy and the agents' managed
// settings, root's — and back, byte for byte.
import type { Command } from "commander";
import { HookboxError, errorMessage } from "../../core/errors.ts";
import { BUILD_ID } from "../../core/version/index.ts";
import { unifiedDiff } from "../../agents/shared/install/diff.ts";
import { INSTALL_AGENTS, isInstallAgent, type InstallAgent } from "../../agents/installers.ts";
import { MANAGED_SETTINGS, NO_MANAGED_SETTINGS } from "../../agents/managed.ts";
import { systemTierPaths, type SystemTierPaths } from "../../hooks/config/system-tier.ts";
import { dirname } from "../../core/text/posix-path.ts";
import type { CliContext } from "../context.ts";
import { EXIT } from "../exit-codes.ts";
import { missingDirectories, planSystemInstall, planSystemUninstall, sameBytes, type Change } from "./plan.ts";
import { readSystemRecord, type RecordedFile, type SystemRecord } from "./record.ts";

interface SystemOptions {
  readonly system?: boolean;
  readonly root?: string;
  readonly dryRun?: boolean;
  readonly json?: boolean;
  readonly agents?: string;
  readonly binary?: string;
  readonly managedHooksOnly?: boolean;
}

const decoder = new TextDecoder();

export function registerSystemInstall(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command("install")
    .description("With --system (as root): the tier the OS enforces — root's binary, a system policy, and every agent's managed settings running it")
    .option("--system", "install the system tier (required: per-user installs are install-agent and self-install)")
    .option("--dry-run", "show every file it would change, as a diff; change nothing")
    .option("--agents <names>", `comma-separated agents whose managed settings to write (default: ${Object.keys(MANAGED_SETTINGS).join(", ")})`)
    .option(
      "--managed-hooks-only",
      "also make Claude Code and Codex ignore every hook but the managed ones (allowManagedHooksOnly, allow_managed_hooks_only)",
    )
    .option("--binary <path>", "the hookbox binary to install (default: this one)")
    .option("--root <dir>", "the system tier under DIR instead of / (tests, images): every path below is under it")
    .option("--json", "print what changed as JSON")
    .addHelpText(
      "after",
      `
Writes, as root:
  /usr/local/bin/hookbox                  this binary (on the default PATH)
  /etc/hookbox/hookbox.yaml               the system policy, when there is none: the standard guards, fail_closed
  /etc/claude-code/managed-settings.json  Claude Code's managed settings
  /etc/codex/requirements.toml            Codex's managed requirements (hooks with managed_dir /etc/hookbox)
  /etc/gemini-cli/settings.json           Gemini CLI's system settings
  /etc/qwen-code/settings.json            Qwen Code's system settings
  /etc/cursor/hooks.json                  Cursor's enterprise hooks (from its documentation; not run by our tests)
  /var/lib/hookbox/system-install.json    what was there before (uninstall --system restores it byte for byte)
Each agent's entries run \`/usr/local/bin/hookbox emit <Event> --agent <agent> --system\`.
Copilot CLI and opencode get none: hookbox doctor and SECURITY.md say why.

A user's own operator file and their projects add to the system policy, never weaken it:
hookbox validate shows the merged result and where each line comes from; hookbox doctor shows
which tier protects each agent. Running it again changes only what differs.`,
    )
    .action(async (options: SystemOptions) => {
      requireSystem(options, "install");
      const root = rootOf(ctx, options);
      const paths = systemTierPaths(root);
      const fs = ctx.host.fs;
      const binary = options.binary ?? ctx.host.binaryPath();
      if (binary === undefined)
        throw new HookboxError(
          "usage",
          "this hookbox runs from sources: build it (node scripts/bun.mjs build.ts) and run dist/hookbox install --system, or pass --binary",
        );
      const agents = agentsOf(options.agents);
      const previous = await readSystemRecord(fs, paths.record);
      const changes = await planSystemInstall(ctx.host, { root, binary, agents, managedHooksOnly: options.managedHooksOnly === true }, previous);
      const changing = changes.filter((change) => !sameBytes(change.before, change.after));
      const dirs = await missingDirectories(ctx.host, [
        ...changing.map((change) => change.path),
        ...(changing.length > 0 ? [paths.record, `${backupDir(paths)}/x`] : []),
        ...agents.flatMap((agent) => MANAGED_SETTINGS[agent]?.requiredDirs?.(paths).map((dir) => `${dir}/x`) ?? []),
      ]);
      const notes = [
        ...agents.filter((agent) => !MANAGED_SETTINGS[agent]).map((agent) => `${agent}: no system tier — ${NO_MANAGED_SETTINGS[agent] ?? "none"}`),
        ...agents.flatMap((agent) => (MANAGED_SETTINGS[agent]?.cannot ?? []).map((line) => `${agent}: not enforced: ${line}`)),
      ];
      if (options.dryRun !== true) {
        if (changing.length > 0 || dirs.length > 0) await ensureRoot(ctx);
        await apply(ctx, paths, changing, dirs, previous, options.managedHooksOnly === true);
      }
      await report(ctx, options, { action: "install", root, changes, changing, dirs, kept: [], notes });
      setExit(EXIT.ok);
    });

  program
    .command("uninstall")
    .description("With --system (as root): take the system tier out again, putting back byte for byte what was there before")
    .option("--system", "uninstall the system tier (required: per-user ones are uninstall-agent and self-uninstall)")
    .option("--dry-run", "show every file it would change, as a diff; change nothing")
    .option("--root <dir>", "the system tier under DIR instead of /")
    .option("--json", "print what changed as JSON")
    .action(async (options: SystemOptions) => {
      requireSystem(options, "uninstall");
      const root = rootOf(ctx, options);
      const paths = systemTierPaths(root);
      const record = await readSystemRecord(ctx.host.fs, paths.record);
      const { changes, kept } = await planSystemUninstall(ctx.host, root, record, (entry) =>
        ctx.host.fs.readBytes(backupOf(paths, record as SystemRecord, entry)),
      );
      if (options.dryRun !== true) {
        if (changes.length > 0 || record) await ensureRoot(ctx);
        await restore(ctx, paths, changes, record);
      }
      await report(ctx, options, { action: "uninstall", root, changes, changing: changes, dirs: record?.created_dirs ?? [], kept, notes: [] });
      setExit(EXIT.ok);
    });
}

function requireSystem(options: SystemOptions, command: "install" | "uninstall"): void {
  if (options.system === true) return;
  throw new HookboxError(
    "usage",
    command === "install"
      ? "hookbox install installs the system tier, as root: give --system (for one agent of yours: hookbox install-agent; the binary for you alone: hookbox self-install)"
      : "hookbox uninstall takes the system tier out, as root: give --system (for one agent of yours: hookbox uninstall-agent; everything of yours: hookbox self-uninstall)",
  );
}

function rootOf(ctx: CliContext, options: SystemOptions): string {
  if (options.root === undefined) return "/";
  return options.root.startsWith("/") ? options.root : `${ctx.host.cwd()}/${options.root}`;
}

function agentsOf(list: string | undefined): InstallAgent[] {
  if (list === undefined) return Object.keys(MANAGED_SETTINGS) as InstallAgent[];
  const names = list
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names)
    if (!isInstallAgent(name)) throw new HookboxError("usage", `--agents: unknown agent "${name}"; known: ${INSTALL_AGENTS.join(", ")}`);
  return names as InstallAgent[];
}

async function ensureRoot(ctx: CliContext): Promise<void> {
  if (ctx.host.uid() === 0) return;
  throw new HookboxError(
    "permission_denied",
    "the system tier is root's: every file of it must be one only root can change. Run it as root (sudo hookbox install --system); --dry-run shows what it would do",
  );
}

function backupDir(paths: SystemTierPaths): string {
  return `${dirname(paths.record)}/backup`;
}

function backupOf(paths: SystemTierPaths, record: SystemRecord, entry: RecordedFile): string {
  if (!entry.before) throw new Error(`no backup of ${entry.path}`);
  return entry.before.backup.startsWith("/") ? entry.before.backup : `${backupDir(paths)}/${entry.before.backup}`;
}

/** Directories, backups of what was there, the files, the record: in that order, so an interruption leaves what uninstall needs. */
async function apply(
  ctx: CliContext,
  paths: SystemTierPaths,
  changing: readonly Change[],
  dirs: readonly string[],
  previous: SystemRecord | undefined,
  managedHooksOnly: boolean,
): Promise<void> {
  if (changing.length === 0 && dirs.length === 0) return;
  const fs = ctx.host.fs;
  const digest = (bytes: Uint8Array): Promise<string> => ctx.host.digest.sha256Hex(bytes);
  for (const dir of dirs) await fs.mkdirp(dir, dir.startsWith(backupDir(paths)) ? 0o700 : 0o755, true);
  const files: RecordedFile[] = [...(previous?.files ?? [])];
  for (const change of changing) {
    const known = files.findIndex((entry) => entry.path === change.path);
    let before = known >= 0 ? (files[known] as RecordedFile).before : null;
    if (known < 0 && change.before !== undefined) {
      const name = `${files.length + 1}-${change.path.split("/").pop()}`;
      await fs.mkdirp(backupDir(paths), 0o700, true);
      await fs.writeBytesAtomic(`${backupDir(paths)}/${name}`, change.before, 0o600);
      before = { mode: (await fs.mode(change.path)) ?? change.mode, sha256: await digest(change.before), backup: name };
    }
    await writeFile(ctx, change.path, change.after as Uint8Array, change.mode);
    const entry: RecordedFile = {
      path: change.path,
      what: change.what,
      ...(change.agent ? { agent: change.agent } : {}),
      before,
      after: { mode: change.mode, sha256: await digest(change.after as Uint8Array) },
      added: change.added as string[],
    };
    if (known >= 0) files[known] = entry;
    else files.push(entry);
  }
  const record: SystemRecord = {
    v: 1,
    installed_at: previous?.installed_at ?? new Date().toISOString(),
    build: BUILD_ID,
    root: paths.root,
    managed_hooks_only: managedHooksOnly,
    created_dirs: [...new Set([...(previous?.created_dirs ?? []), ...dirs])],
    files,
  };
  await fs.writeTextAtomic(paths.record, `${JSON.stringify(record, null, 2)}\n`, 0o600);
  await fs.chmod(paths.record, 0o600);
}

/** The files back as they were; then the backups, the record and the directories install created (those left empty). */
async function restore(ctx: CliContext, paths: SystemTierPaths, changes: readonly Change[], record: SystemRecord | undefined): Promise<void> {
  const fs = ctx.host.fs;
  for (const change of changes) {
    if (change.after === undefined) await fs.remove(change.path);
    else await writeFile(ctx, change.path, change.after, change.mode);
  }
  if (!record) return;
  for (const entry of record.files) if (entry.before) await fs.remove(backupOf(paths, record, entry)).catch(() => undefined);
  await fs.removeEmptyDir(backupDir(paths));
  await fs.remove(paths.record);
  const deepestFirst = [...record.created_dirs].sort((a, b) => b.split("/").length - a.split("/").length);
  for (const dir of deepestFirst) await fs.removeEmptyDir(dir);
}

async function writeFile(ctx: CliContext, path: string, bytes: Uint8Array, mode: number): Promise<void> {
  try {
    await ctx.host.fs.writeBytesAtomic(path, bytes, mode);
    // The process's umask may have taken bits off: the mode is part of what is restored.
    await ctx.host.fs.chmod(path, mode);
  } catch (error) {
    throw new HookboxError("os_error", `cannot write ${path}: ${errorMessage(error)}`);
  }
}

interface Outcome {
  readonly action: "install" | "uninstall";
  readonly root: string;
  readonly changes: readonly Change[];
  readonly changing: readonly Change[];
  readonly dirs: readonly string[];
  readonly kept: readonly string[];
  readonly notes: readonly string[];
}

async function report(ctx: CliContext, options: SystemOptions, outcome: Outcome): Promise<void> {
  const dryRun = options.dryRun === true;
  const diffs = outcome.changing.map((change) => ({ change, diff: describeDiff(change) }));
  if (options.json === true) {
    await ctx.out(
      `${JSON.stringify(
        {
          v: 1,
          action: outcome.action,
          dry_run: dryRun,
          root: outcome.root,
          changed: outcome.changing.length > 0,
          files: outcome.changes.map((change) => ({
            path: change.path,
            what: change.what,
            ...(change.agent ? { agent: change.agent } : {}),
            change: sameBytes(change.before, change.after)
              ? "unchanged"
              : change.after === undefined
                ? "removed"
                : change.before === undefined
                  ? "created"
                  : "changed",
            summary: change.summary,
            diff: describeDiff(change),
          })),
          directories: outcome.dirs,
          kept: outcome.kept,
          notes: outcome.notes,
        },
        null,
        2,
      )}\n`,
    );
    return;
  }
  const lines: string[] = [];
  for (const change of outcome.changes) {
    const state = sameBytes(change.before, change.after)
      ? "unchanged"
      : change.after === undefined
        ? "remove"
        : change.before === undefined
          ? "create"
          : "change";
    lines.push(`${change.path} (${change.what}): ${state}`);
    for (const line of change.summary) lines.push(`  ${line}`);
  }
  if (outcome.dirs.length > 0)
    lines.push(`${outcome.action === "install" ? "directories created" : "directories removed when empty"}: ${outcome.dirs.join(", ")}`);
  for (const line of outcome.kept) lines.push(`kept: ${line}`);
  for (const line of outcome.notes) lines.push(`! ${line}`);
  if (dryRun) {
    lines.push("(dry run: nothing written)");
    for (const { diff } of diffs) if (diff) lines.push(diff.trimEnd());
  } else if (outcome.changing.length === 0) lines.push("nothing to change");
  else lines.push(outcome.action === "install" ? "installed; hookbox doctor shows which tier protects each agent" : "uninstalled");
  await ctx.out(`${lines.join("\n")}\n`);
}

/** A text file's change as a unified diff; a binary's as its size. */
function describeDiff(change: Change): string {
  if (sameBytes(change.before, change.after)) return "";
  if (change.binary) {
    const size = (bytes: Uint8Array | undefined): string => (bytes === undefined ? "nothing" : `${bytes.byteLength} bytes`);
    return `--- ${change.before === undefined ? "/dev/null" : change.path}\n+++ ${change.after === undefined ? "/dev/null" : change.path}\nBinary file: ${size(change.before)} → ${size(change.after)}\n`;
  }
  return unifiedDiff(
    change.path,
    change.before === undefined ? undefined : decoder.decode(change.before),
    change.after === undefined ? undefined : decoder.decode(change.after),
  );
}
