import { errorMessage } from "../../core/errors.ts";
import type { CliContext } from "../context.ts";
import { stopAll } from "../daemon.ts";
import { settleDaemons } from "./daemons.ts";
import { uninstallFrom, type UninstallChange } from "../uninstall-agent.ts";
import type { CreatedFile, ProfileEdit, UninstallPlan } from "./plan.ts";

/** What self-uninstall did (or, with --dry-run, would do): its --json output, snake_case. */
export interface UninstallReport {
  readonly v: 1;
  readonly dry_run: boolean;
  readonly purge: boolean;
  readonly agents: readonly UninstallChange[];
  readonly daemons: readonly { readonly pid: number; readonly socket: string; readonly stopped: boolean }[];
  readonly profiles: readonly {
    readonly file: string;
    readonly lines_removed: number;
    readonly removed_file: boolean;
    readonly backup: string | null;
  }[];
  readonly runtime: readonly string[];
  readonly binaries: readonly string[];
  /** Files Hookbox created for the user (the operator file with the default guards), unchanged since: removed. */
  readonly created_files: readonly { readonly file: string; readonly what: string; readonly backup: string | null }[];
  /** Removed with --purge; without it, kept. */
  readonly purged: readonly { readonly path: string; readonly what: string }[];
  readonly kept: readonly { readonly path: string; readonly what: string }[];
  readonly left: readonly { readonly path: string; readonly why: string }[];
  /** What could not be done, each with what to do instead. */
  readonly problems: readonly string[];
}

function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, "-");
}

/**
 * A startup file's copy before its marked lines go, in the data directory's backups (not beside
 * it, as uninstall-agent keeps a settings file's): only lines carrying self-install's mark are
 * taken out, so the copy holds nothing of the user's that the file does not, and a home
 * directory is left without clutter. --purge removes it with the data.
 */
async function backup(ctx: CliContext, dataDir: string, file: string, text: string, kind = "profile"): Promise<string> {
  const path = `${dataDir}/backups/${kind}-${file.slice(file.lastIndexOf("/") + 1)}.hookbox-backup-${stamp()}`;
  await ctx.host.fs.mkdirp(`${dataDir}/backups`, 0o700, true);
  await ctx.host.fs.writeTextAtomic(path, text, 0o600);
  return path;
}

/** Empty directories Hookbox created, deepest first, until one is not empty. */
async function removeCreatedDirs(ctx: CliContext, dirs: readonly string[]): Promise<void> {
  for (const dir of [...dirs].reverse()) if (!(await ctx.host.fs.removeEmptyDir(dir).catch(() => false))) break;
}

async function editProfile(ctx: CliContext, plan: UninstallPlan, edit: ProfileEdit): Promise<UninstallReport["profiles"][number]> {
  const saved = await backup(ctx, plan.dataDir, edit.file, edit.before);
  if (edit.after === undefined) {
    await ctx.host.fs.remove(edit.file);
    await removeCreatedDirs(ctx, edit.createdDirs);
  } else await ctx.host.fs.writeTextAtomic(edit.file, edit.after, (await ctx.host.fs.mode(edit.file)) ?? 0o644);
  return { file: edit.file, lines_removed: edit.lines, removed_file: edit.after === undefined, backup: saved };
}

/** A file Hookbox created and nobody changed since: a backup in the data directory, then it, its empty directories and its record go. */
async function removeCreatedFile(ctx: CliContext, plan: UninstallPlan, file: CreatedFile): Promise<string> {
  const saved = await backup(ctx, plan.dataDir, file.file, await ctx.host.fs.readText(file.file), "created");
  await ctx.host.fs.remove(file.file);
  await removeCreatedDirs(ctx, file.createdDirs);
  await ctx.host.fs.remove(file.record);
  return saved;
}

/** The entries still there (removing what Hookbox created may have emptied the config directory). */
async function existing(ctx: CliContext, entries: UninstallPlan["purge"]): Promise<UninstallPlan["purge"]> {
  const found = await Promise.all(entries.map(async (entry) => ((await ctx.host.fs.exists(entry.path)) ? [entry] : [])));
  return found.flat();
}

/** Run one step; a failure is a problem named with its place, and the steps after it still run. */
async function step<T>(problems: string[], what: string, run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    problems.push(`${what}: ${errorMessage(error)}`);
    return undefined;
  }
}

/**
 * Undo, in an order that leaves nothing half-working: the agents' entries first (no agent starts
 * hookbox again), then the daemons, their sockets, the startup-file lines, with --purge the config
 * and data, and the binaries last (this process may be one of them: on Linux and macOS a running
 * program's file can go).
 */
export async function applyUninstall(
  ctx: CliContext,
  plan: UninstallPlan,
  options: { readonly dryRun: boolean; readonly purge: boolean },
): Promise<UninstallReport> {
  const problems: string[] = [];
  const agents: UninstallChange[] = [];
  for (const target of plan.agents) {
    const done = await step(problems, `${target.file} (${target.agent}, ${target.scope})`, () => uninstallFrom(ctx, target, options.dryRun));
    if (done) agents.push(done.change);
  }
  const daemons: { pid: number; socket: string; stopped: boolean }[] = [];
  for (const daemon of plan.daemons) {
    const stopped = options.dryRun ? [] : ((await step(problems, `the daemon on ${daemon.socket}`, () => stopAll(ctx, [daemon]))) ?? []);
    daemons.push({ pid: daemon.info?.pid ?? 0, socket: daemon.socket, stopped: stopped.length > 0 });
  }
  if (!options.dryRun) {
    problems.push(...(await settleDaemons(ctx, plan.socketDirs)));
    for (const dir of plan.runtimeDirs) await step(problems, dir, () => ctx.host.fs.removeTree(dir));
    for (const file of plan.runtimeFiles) await step(problems, file, () => ctx.host.fs.remove(file));
    // ~/.hookbox held only the socket directory (no XDG_RUNTIME_DIR).
    for (const dir of plan.runtimeDirs)
      if (dir.endsWith("/.hookbox/run")) await ctx.host.fs.removeEmptyDir(dir.slice(0, -"/run".length)).catch(() => false);
  }
  const profiles: UninstallReport["profiles"][number][] = [];
  for (const edit of plan.profiles) {
    if (options.dryRun) profiles.push({ file: edit.file, lines_removed: edit.lines, removed_file: edit.after === undefined, backup: null });
    else {
      const done = await step(problems, edit.file, () => editProfile(ctx, plan, edit));
      if (done) profiles.push(done);
    }
  }
  const created: { file: string; what: string; backup: string | null }[] = [];
  for (const file of plan.createdFiles) {
    if (options.dryRun) created.push({ file: file.file, what: file.what, backup: null });
    else {
      const done = await step(problems, file.file, () => removeCreatedFile(ctx, plan, file));
      if (done !== undefined) created.push({ file: file.file, what: file.what, backup: done });
    }
  }
  if (!options.dryRun) {
    if (options.purge) for (const { path } of plan.purge) await step(problems, path, () => ctx.host.fs.removeTree(path));
    else await step(problems, plan.selfRecord, () => ctx.host.fs.remove(plan.selfRecord));
    for (const binary of plan.binaries) {
      const removed = await step(problems, `${binary.path} (remove it with: rm ${binary.path})`, async () => {
        await ctx.host.fs.remove(binary.path);
        return true;
      });
      if (removed) await removeCreatedDirs(ctx, binary.createdDirs);
    }
  }
  return {
    v: 1,
    dry_run: options.dryRun,
    purge: options.purge,
    agents,
    daemons,
    profiles,
    runtime: [...plan.runtimeDirs, ...plan.runtimeFiles],
    binaries: plan.binaries.map((binary) => binary.path),
    created_files: created,
    purged: options.purge ? plan.purge : [],
    kept: options.purge ? [] : await existing(ctx, plan.purge),
    left: plan.left,
    problems,
  };
}
