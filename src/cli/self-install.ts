import type { Command } from "commander";
import { HookboxError, errorMessage } from "../errors.ts";
import type { RuntimeHost } from "../runtime/index.ts";
import { VERSION } from "../version/index.ts";
import type { CliContext } from "./context.ts";

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
  /** The line that puts `dir` on PATH, for the user's shell profile (when it is not on PATH). */
  readonly profile_line: string | undefined;
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

function profileLine(host: RuntimeHost, dir: string, windows: boolean): string {
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
    throw new HookboxError("usage", `self-install copies the hookbox binary, but this is Hookbox running from sources on ${host.name}: build the binary (npm run build) and run ./dist/hookbox self-install`);
  }
  const windows = isWindowsPath(source);
  const dir = absoluteDir(host, dirOption, windows);
  const path = joinPath(dir, windows ? "hookbox.exe" : "hookbox", windows);
  let outcome: SelfInstallOutcome;
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
    throw new HookboxError("internal", `cannot install hookbox into ${dir}: ${errorMessage(error)}; choose a directory you can write with --dir (e.g. --dir ~/.local/bin)`);
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
  return { outcome, path, dir, on_path: onPath, shadowed_by: onPath ? shadowedBy : undefined, profile_line: onPath ? undefined : profileLine(host, dir, windows) };
}

export function formatSelfInstall(report: SelfInstallReport): string {
  const lines = [
    report.outcome === "unchanged"
      ? `${report.path} is already this binary (hookbox ${VERSION}): nothing to do`
      : `${report.outcome === "installed" ? "installed" : "replaced the different binary at"} ${report.path} (hookbox ${VERSION})`,
  ];
  if (report.shadowed_by) lines.push(`warning: ${report.shadowed_by} comes earlier on PATH, so \`hookbox\` runs that one; remove it or put ${report.dir} first`);
  if (report.profile_line) lines.push(`${report.dir} is not on PATH; add it (then open a new shell):`, `  ${report.profile_line}`);
  else lines.push("next: hookbox doctor");
  return `${lines.join("\n")}\n`;
}

export function registerSelfInstall(program: Command, ctx: CliContext): void {
  program
    .command("self-install")
    .description("Copy this binary to a directory on PATH as hookbox (nothing to do when it is there already; a different one is replaced atomically)")
    .option("--dir <dir>", "where to put it", "~/.local/bin")
    .option("--json", "print the outcome as JSON")
    .action(async (options: { dir: string; json?: boolean }) => {
      const report = await selfInstall(ctx.host, options.dir);
      await ctx.out(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatSelfInstall(report));
    });
}
