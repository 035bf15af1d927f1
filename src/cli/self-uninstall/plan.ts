import type { Locations } from "../../hooks/config/locations.ts";
import { defaultSocketPath } from "../../core/wire/socket.ts";
import { findDaemons, type FoundDaemon } from "../../serve/daemon/discover.ts";
import { identityOf } from "../../decide/identity.ts";
import { findProjectRoot } from "../../decide/project.ts";
import { INSTALL_AGENTS, INSTALLERS } from "../../agents/installers.ts";
import { checkoutBuildDir } from "../../agents/shared/install/hookbox-command.ts";
import { sha256Hex } from "../../../sandbox/index.ts";
import { BUILD_ID } from "../../core/version/index.ts";
import { scopesHoldingHookbox, targetOf, type AgentSettingsTarget } from "../agent-settings.ts";
import type { CliContext } from "../context.ts";
import { readInstallRecords, readSelfRecord, selfRecordPath, type CreatedFileRecordV1, type ProfileLineRecord } from "../install-records.ts";
import { linesRunningHookbox, profileFiles, withoutProfileLines } from "../profile-path.ts";

/** One shell startup file holding self-install's marked lines. */
export interface ProfileEdit {
  readonly file: string;
  readonly lines: number;
  readonly before: string;
  /** The text without them; undefined when the file goes (self-install created it and nothing else is in it). */
  readonly after: string | undefined;
  /** Directories self-install created for it, outermost first. */
  readonly createdDirs: readonly string[];
}

/** A file Hookbox created for the user, unchanged since: it goes. */
export interface CreatedFile {
  readonly file: string;
  readonly what: string;
  readonly createdDirs: readonly string[];
  /** Its install record. */
  readonly record: string;
}

export interface BinaryRemoval {
  readonly path: string;
  readonly createdDirs: readonly string[];
}

/** A place self-uninstall does not change, and what to do about it. */
export interface LeftAlone {
  readonly path: string;
  readonly why: string;
}

/** Everything Hookbox put on this account, found before anything is changed. */
export interface UninstallPlan {
  /** The agents' settings files holding Hookbox's entries: install-agent's records, and every agent's user-wide file. */
  readonly agents: readonly AgentSettingsTarget[];
  readonly daemons: readonly FoundDaemon[];
  /** Hookbox's socket directory (removed whole), and sockets of its own elsewhere (HOOKBOX_SOCKET). */
  readonly runtimeDirs: readonly string[];
  readonly runtimeFiles: readonly string[];
  /** Where daemons' sockets and their locks are: the default directory and HOOKBOX_SOCKET's. */
  readonly socketDirs: readonly string[];
  readonly profiles: readonly ProfileEdit[];
  readonly binaries: readonly BinaryRemoval[];
  readonly createdFiles: readonly CreatedFile[];
  /** With --purge: removed; without: kept, and named. */
  readonly purge: readonly { readonly path: string; readonly what: string }[];
  readonly left: readonly LeftAlone[];
  readonly selfRecord: string;
  readonly dataDir: string;
}

const SOCKET_FILE = /^(?:hookbox|auto-[0-9a-f]{16})\.sock(?:\.lock)?$/;

function dirOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/")) || "/";
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}

async function agentTargets(ctx: CliContext, dataDir: string): Promise<AgentSettingsTarget[]> {
  const { agents } = await readInstallRecords(ctx.host, dataDir);
  const targets = new Map<string, AgentSettingsTarget>();
  for (const { record } of agents)
    targets.set(record.file, { agent: record.agent, scope: record.scope, file: record.file, dataDir, project: dirOf(record.file) });
  // Every agent's user-wide file is this account's own: Hookbox's entries there go, recorded or not.
  const project = await findProjectRoot(ctx.host.fs, ctx.host.cwd(), ctx.host.homeDir());
  for (const agent of INSTALL_AGENTS) {
    if (INSTALLERS[agent].configPath("user", { home: ctx.host.homeDir(), project, env: ctx.host.env }) === undefined) continue;
    for (const held of await scopesHoldingHookbox(ctx, agent, project)) {
      if (held.scope === "user" && !targets.has(held.file)) targets.set(held.file, targetOf(ctx, agent, "user", project));
    }
  }
  return [...targets.values()];
}

async function profileEdits(ctx: CliContext, recorded: readonly ProfileLineRecord[]): Promise<{ edits: ProfileEdit[]; left: LeftAlone[] }> {
  const files = [...new Set([...profileFiles(ctx.host).map((profile) => profile.file), ...recorded.map((line) => line.file)])];
  const edits: ProfileEdit[] = [];
  const left: LeftAlone[] = [];
  for (const file of files) {
    if ((await ctx.host.fs.kind(file)) !== "file") continue;
    const before = await ctx.host.fs.readText(file).catch(() => undefined);
    if (before === undefined) continue;
    const mine = recorded.filter((line) => line.file === file);
    const { text, removed } = withoutProfileLines(
      before,
      mine.some((line) => line.added_newline),
    );
    if (removed > 0) {
      const created = mine.some((line) => line.created_file);
      edits.push({
        file,
        lines: removed,
        before,
        after: created && text.trim() === "" ? undefined : text,
        createdDirs: mine.find((line) => line.created_file)?.created_dirs ?? [],
      });
    }
    for (const line of linesRunningHookbox(text)) {
      left.push({
        path: `${file}:${line.line}`,
        why: `\`${line.text.trim()}\` runs hookbox, and you wrote it: remove it, or each new shell says hookbox: command not found`,
      });
    }
  }
  return { edits, left };
}

async function binaries(
  ctx: CliContext,
  recorded: readonly { readonly path: string; readonly created_dirs: readonly string[] }[],
): Promise<{ remove: BinaryRemoval[]; left: LeftAlone[] }> {
  const remove = new Map<string, BinaryRemoval>();
  for (const binary of recorded)
    if ((await ctx.host.fs.kind(binary.path)) !== "missing") remove.set(binary.path, { path: binary.path, createdDirs: binary.created_dirs });
  const left: LeftAlone[] = [];
  const running = ctx.host.binaryPath() ?? ctx.host.executablePath();
  if (running !== undefined && !remove.has(running)) {
    const buildDir = await checkoutBuildDir(running, (path) => ctx.host.fs.exists(path));
    if (buildDir !== undefined) left.push({ path: running, why: `the build output of a checkout (${buildDir}): its build makes it again` });
    else if (!/^hookbox(\.exe)?$/.test(baseName(running)))
      left.push({ path: running, why: "the file you ran (self-install copies it as hookbox): delete it when you are done" });
    else remove.set(running, { path: running, createdDirs: [] });
  }
  return { remove: [...remove.values()], left };
}

async function stillAsCreated(ctx: CliContext, record: CreatedFileRecordV1): Promise<boolean> {
  const text = await ctx.host.fs.readText(record.file).catch(() => undefined);
  return text !== undefined && (await sha256Hex(text)) === record.after_sha256;
}

/**
 * Files Hookbox created for the user (install-agent's operator file with the default guards): they
 * go, as the rest of what was installed does, while they still hold what Hookbox wrote; changed
 * since, they are the user's and stay.
 */
async function createdFiles(ctx: CliContext, dataDir: string): Promise<{ files: CreatedFile[]; left: LeftAlone[] }> {
  const files: CreatedFile[] = [];
  const left: LeftAlone[] = [];
  for (const { path, record } of (await readInstallRecords(ctx.host, dataDir)).created) {
    if (!(await ctx.host.fs.exists(record.file))) continue;
    if (await stillAsCreated(ctx, record)) files.push({ file: record.file, what: record.what, createdDirs: record.created_dirs, record: path });
    else left.push({ path: record.file, why: `${record.what}: changed since Hookbox created it, so it is yours now` });
  }
  return { files, left };
}

async function purgeList(ctx: CliContext, locations: Locations, dataDir: string): Promise<{ path: string; what: string }[]> {
  const configDir = `${locations.configHome}/hookbox`;
  const purge: { path: string; what: string }[] = [];
  if (await ctx.host.fs.exists(configDir))
    purge.push({ path: configDir, what: "config: the operator file, your own hooks, installed packages and their lock file" });
  if (await ctx.host.fs.exists(dataDir))
    purge.push({ path: dataDir, what: "data: the audit log, hook stores, trust and install records, backups, the daemon's log" });
  return purge;
}

/** Everything self-uninstall would change, read before anything is. */
export async function planUninstall(ctx: CliContext, locations: Locations): Promise<UninstallPlan> {
  const dataDir = locations.dataDir;
  const record = await readSelfRecord(ctx.host, dataDir);
  const daemons = (await findDaemons(ctx.host, locations, identityOf(locations, BUILD_ID, ctx.host.homeDir()), false)).filter(
    (daemon) => daemon.info !== undefined,
  );
  const defaultDir = dirOf(defaultSocketPath(ctx.host.env, ctx.host.homeDir()));
  const socketDir = dirOf(locations.socketPath);
  const runtimeDirs = (await ctx.host.fs.kind(defaultDir)) === "dir" ? [defaultDir] : [];
  const runtimeFiles =
    socketDir === defaultDir
      ? []
      : (await ctx.host.fs.listDir(socketDir).catch(() => []))
          .filter((entry) => SOCKET_FILE.test(entry.name))
          .map((entry) => `${socketDir}/${entry.name}`);
  const profiles = await profileEdits(ctx, record.profile_lines);
  const found = await binaries(ctx, record.binaries);
  const created = await createdFiles(ctx, dataDir);
  const fishCompletions = `${locations.configHome}/fish/completions/hookbox.fish`;
  const completions: LeftAlone[] = (await ctx.host.fs.exists(fishCompletions))
    ? [{ path: fishCompletions, why: "fish completion you saved from hookbox completion fish: delete it with the binary" }]
    : [];
  return {
    agents: await agentTargets(ctx, dataDir),
    daemons,
    runtimeDirs,
    runtimeFiles,
    socketDirs: [...new Set([defaultDir, socketDir])],
    profiles: profiles.edits,
    binaries: found.remove,
    createdFiles: created.files,
    purge: await purgeList(ctx, locations, dataDir),
    left: [...profiles.left, ...completions, ...found.left, ...created.left],
    selfRecord: selfRecordPath(dataDir),
    dataDir,
  };
}
