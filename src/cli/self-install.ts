import type { Command } from "commander";
import { resolveLocations } from "../hooks/config/locations.ts";
import { HookboxError, errorMessage } from "../core/errors.ts";
import type { RuntimeHost } from "../platform/index.ts";
import { VERSION } from "../core/version/index.ts";
import type { CliContext } from "./context.ts";
import { readSelfRecord, writeSelfRecord, type ProfileLineRecord } from "./install-records.ts";
import { profileFilesToEdit, profileLine, withProfileLine } from "./profile-path.ts";

const EXECUTABLE_MODE = 0o755;

export type SelfInstallOutcome = "installed" | "replaced" | "unchanged";

/** What `self-install` did (snake_case: it is the --json output). */
export interface SelfInstallReport {
  readonly outcome: SelfInstallOutcome;
  /** Where the binary is now. */
  readonly path: string;
  readonly dir: string;
  readonly on_path: boolean;
  /** Another hookbox that a shell finds first on PATH, if any. */
  readonly shadowed_by: string | undefined;
  /** The line that puts `dir` on PATH, for the user's shell profile (when it is not on PATH and no profile was changed). */
  readonly profile_line: string | undefined;
  /** The shell startup files that now put `dir` on PATH (--modify-path, or yes at the terminal): each one's change. */
  readonly profiles: readonly ProfileChange[];
  /** What could not be done beside the copy (recording it for self-uninstall). */
  readonly warnings: readonly string[];
}

/** One startup file self-install looked at: `added` the line, `created` the file with it, or the line was `present` already. */
export interface ProfileChange {
  readonly file: string;
  readonly change: "added" | "created" | "present";
}

/** `C:\…` or `\\server\…`: the binary runs on Windows, where PATH is `;`-separated and names end in .exe. */
function isWindowsPath(path: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

function joinPath(dir: string, name: string, windows: boolean): string {
  const sep = windows ? "\\" : "/";
  return dir.endsWith("/") || dir.endsWith("\\") ? `${dir}${name}` : `${dir}${sep}${name}`;
}

/** `~` and `~/x` (a shell leaves `--dir=~/x` unexpanded) and relative directories, made absolute. */
function absoluteDir(host: RuntimeHost, dir: string, windows: boolean): string {
  if (dir === "~" || dir.startsWith("~/")) return `${host.homeDir()}${dir.slice(1)}`;
  if (dir.startsWith("/") || isWindowsPath(dir)) return dir;
  return joinPath(host.cwd(), dir, windows);
}

async function realpathOrSelf(host: RuntimeHost, path: string): Promise<string> {
  return host.fs.realpath(path).catch(() => path);
}

async function sameBytes(host: RuntimeHost, a: string, b: string): Promise<boolean> {
  const [sizeA, sizeB] = await Promise.all([host.fs.size(a), host.fs.size(b)]);
  if (sizeA === undefined || sizeA !== sizeB) return false;
  const [bytesA, bytesB] = await Promise.all([host.fs.readBytes(a), host.fs.readBytes(b)]);
  for (let index = 0; index < bytesA.length; index++) if (bytesA[index] !== bytesB[index]) return false;
  return true;
}

/** What to add by hand, for the shell in $SHELL. */
function manualProfileLine(host: RuntimeHost, dir: string, windows: boolean): string {
  if (windows) return `setx PATH "${dir};%PATH%"`;
  const home = host.homeDir();
  const shown = dir.startsWith(`${home}/`) ? `$HOME${dir.slice(home.length)}` : dir;
  const shell = (host.env.SHELL ?? "").split("/").pop();
  if (shell === "fish") return `fish_add_path ${shown}`;
  const line = `export PATH="${shown}:$PATH"`;
  const rc = shell === "zsh" ? "~/.zshrc" : shell === "bash" ? "~/.bashrc" : undefined;
  return rc ? `echo '${line}' >> ${rc}` : `${line}    # in your shell's startup file`;
}

/**
 * Copy the running binary to `dir` as hookbox (hookbox.exe on Windows): nothing when the same
 * bytes are there already, else an atomic replace (a temporary file beside it, then rename), so
 * a hookbox running from there meanwhile keeps its old file.
 */
export async function selfInstall(host: RuntimeHost, dirOption: string): Promise<SelfInstallReport> {
  const source = host.executablePath();
  if (source === undefined) {
    throw new HookboxError(
      "usage",
      `self-install copies the hookbox binary, but this is Hookbox running from sources on ${host.name}: build the binary (npm run build) and run ./dist/hookbox self-install`,
    );
  }
  const windows = isWindowsPath(source);
  const dir = absoluteDir(host, dirOption, windows);
  const path = joinPath(dir, windows ? "hookbox.exe" : "hookbox", windows);
  let outcome: SelfInstallOutcome;
  const createdDirs = await missingDirectories(host, dir);
  try {
    await host.fs.mkdirp(dir, EXECUTABLE_MODE);
    const existing = await host.fs.kind(path);
    if (existing !== "missing" && (await realpathOrSelf(host, path)) === (await realpathOrSelf(host, source))) outcome = "unchanged";
    else if (existing === "file" && (await sameBytes(host, source, path))) outcome = "unchanged";
    else {
      await host.fs.copyFileAtomic(source, path, EXECUTABLE_MODE);
      outcome = existing === "missing" ? "installed" : "replaced";
    }
  } catch (error) {
    throw new HookboxError(
      "internal",
      `cannot install hookbox into ${dir}: ${errorMessage(error)}; choose a directory you can write with --dir (e.g. --dir ~/.local/bin)`,
    );
  }
  const entries = (host.env.PATH ?? "").split(windows ? ";" : ":").filter((entry) => entry !== "");
  const real = await realpathOrSelf(host, dir);
  let onPath = false;
  let shadowedBy: string | undefined;
  for (const entry of entries) {
    if ((await realpathOrSelf(host, entry)) === real) {
      onPath = true;
      break;
    }
    const other = joinPath(entry, windows ? "hookbox.exe" : "hookbox", windows);
    if (shadowedBy === undefined && (await host.fs.kind(other)) === "file") shadowedBy = other;
  }
  const warnings = await recordBinary(host, path, createdDirs);
  return {
    outcome,
    path,
    dir,
    on_path: onPath,
    shadowed_by: onPath ? shadowedBy : undefined,
    profile_line: onPath ? undefined : manualProfileLine(host, dir, windows),
    profiles: [],
    warnings,
  };
}

/** The directories `dir` needs that are not there yet, outermost first: self-uninstall removes them again when empty. */
async function missingDirectories(host: RuntimeHost, dir: string): Promise<string[]> {
  const missing: string[] = [];
  for (
    let at = dir.replace(/[\\/]+$/, "");
    at !== "" && (await host.fs.kind(at)) === "missing";
    at = at.slice(0, Math.max(at.lastIndexOf("/"), at.lastIndexOf("\\")))
  )
    missing.unshift(at);
  return missing;
}

function dataDirOf(host: RuntimeHost): string {
  return resolveLocations(host, {}).dataDir;
}

/** Where the binary went, for self-uninstall. Best effort: the copy is what was asked for. */
async function recordBinary(host: RuntimeHost, path: string, createdDirs: readonly string[]): Promise<string[]> {
  const dataDir = dataDirOf(host);
  try {
    const record = await readSelfRecord(host, dataDir);
    const earlier = record.binaries.find((binary) => binary.path === path);
    const binaries = [
      ...record.binaries.filter((binary) => binary.path !== path),
      { path, created_dirs: earlier?.created_dirs ?? createdDirs, installed_at: new Date().toISOString() },
    ];
    await writeSelfRecord(host, dataDir, { ...record, binaries });
    return [];
  } catch (error) {
    return [
      `could not record this install in ${dataDir}/installs (${errorMessage(error)}): hookbox self-uninstall removes the binary it runs as, not this copy`,
    ];
  }
}

/**
 * Put `dir` on PATH in the shell's startup files (profileFilesToEdit): a marked line each, added
 * once, recorded so self-uninstall takes it out again.
 */
export async function addToProfiles(host: RuntimeHost, dir: string): Promise<ProfileChange[]> {
  const dataDir = dataDirOf(host);
  const record = await readSelfRecord(host, dataDir);
  const recorded: ProfileLineRecord[] = [...record.profile_lines];
  const changes: ProfileChange[] = [];
  for (const target of await profileFilesToEdit(host)) {
    const line = profileLine(dir, host.homeDir(), target.syntax);
    const existing = (await host.fs.exists(target.file)) ? await host.fs.readText(target.file) : undefined;
    const next = withProfileLine(existing, line);
    if (!next.changed) {
      changes.push({ file: target.file, change: "present" });
      continue;
    }
    const parent = target.file.slice(0, target.file.lastIndexOf("/"));
    const createdDirs = existing === undefined ? await missingDirectories(host, parent) : [];
    if (createdDirs.length > 0) await host.fs.mkdirp(parent, 0o755);
    await host.fs.writeTextAtomic(target.file, next.text, (await host.fs.mode(target.file)) ?? 0o644);
    recorded.push({ file: target.file, line, created_file: existing === undefined, created_dirs: createdDirs, added_newline: next.addedNewline });
    changes.push({ file: target.file, change: existing === undefined ? "created" : "added" });
  }
  await writeSelfRecord(host, dataDir, { ...record, profile_lines: recorded });
  return changes;
}

function tilde(path: string, home: string): string {
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

export function formatSelfInstall(report: SelfInstallReport, home: string): string {
  const lines = [
    report.outcome === "unchanged"
      ? `${report.path} is already this binary (hookbox ${VERSION}): nothing to do`
      : `${report.outcome === "installed" ? "installed" : "replaced the different binary at"} ${report.path} (hookbox ${VERSION})`,
  ];
  for (const warning of report.warnings) lines.push(`warning: ${warning}`);
  if (report.shadowed_by)
    lines.push(`warning: ${report.shadowed_by} comes earlier on PATH, so \`hookbox\` runs that one; remove it or put ${report.dir} first`);
  const changed = report.profiles.filter((profile) => profile.change !== "present");
  if (report.profiles.length > 0) {
    lines.push(
      changed.length > 0
        ? `put ${tilde(report.dir, home)} on PATH in ${changed.map((profile) => tilde(profile.file, home)).join(", ")} (one marked line each; hookbox self-uninstall removes them)`
        : `${tilde(report.dir, home)} is on PATH in ${report.profiles.map((profile) => tilde(profile.file, home)).join(", ")} already`,
      `next: open a new shell and run hookbox doctor (in this one: ${report.path} doctor)`,
    );
  } else if (report.profile_line) {
    lines.push(
      `${report.dir} is not on PATH; add it (then open a new shell), or run self-install again with --modify-path:`,
      `  ${report.profile_line}`,
      `next: ${report.path} doctor`,
    );
  } else lines.push("next: hookbox doctor");
  return `${lines.join("\n")}\n`;
}

/** Whether to put the directory on PATH: the flags say, else the user at a terminal (yes by default), else not. */
async function wantsPath(ctx: CliContext, report: SelfInstallReport, modifyPath: boolean | undefined, json: boolean): Promise<boolean> {
  const windows = isWindowsPath(report.path);
  if (modifyPath === true && windows)
    throw new HookboxError(
      "usage",
      `--modify-path edits the startup files of POSIX shells and fish; on Windows, put ${report.dir} on PATH with: setx PATH "${report.dir};%PATH%"`,
    );
  if (modifyPath !== undefined) return modifyPath;
  if (report.on_path || windows || json || !ctx.host.stdinIsTTY()) return false;
  const files = (await profileFilesToEdit(ctx.host)).map((profile) => tilde(profile.file, ctx.host.homeDir()));
  ctx.err(`${report.dir} is not on PATH. Add it in ${files.join(", ")} (one marked line each; hookbox self-uninstall removes them)? [Y/n] `);
  const answer = (await ctx.host.readStdinLine(200))?.trim().toLowerCase();
  return answer === undefined || answer === "" || answer === "y" || answer === "yes";
}

export function registerSelfInstall(program: Command, ctx: CliContext): void {
  program
    .command("self-install")
    .description(
      "Copy this binary to a directory on PATH as hookbox (nothing to do when it is there already; a different one is replaced atomically)",
    )
    .option("--dir <dir>", "where to put it", "~/.local/bin")
    .option(
      "--modify-path",
      "when the directory is not on PATH, add it in your shell's startup files without asking (~/.profile, and ~/.bashrc, ~/.zshrc or fish's conf.d)",
    )
    .option("--no-modify-path", "never change a startup file (at a terminal self-install asks; elsewhere it only prints the line to add)")
    .option("--json", "print the outcome as JSON")
    .addHelpText(
      "after",
      `
When the directory is not on PATH, self-install asks at a terminal whether to add it to your
shell's startup files, the way rustup does: one line each, marked "added by hookbox self-install",
added once; hookbox self-uninstall takes them out again. Without a terminal it changes no file
unless --modify-path says so, and prints the line to add instead.`,
    )
    .action(async (options: { dir: string; json?: boolean; modifyPath?: boolean }) => {
      const installed = await selfInstall(ctx.host, options.dir);
      const report = (await wantsPath(ctx, installed, options.modifyPath, options.json === true))
        ? { ...installed, profile_line: undefined, profiles: await addToProfiles(ctx.host, installed.dir) }
        : installed;
      await ctx.out(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatSelfInstall(report, ctx.host.homeDir()));
    });
}
