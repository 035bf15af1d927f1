import { HookboxError } from "../core/errors.ts";
import type { RuntimeHost } from "../platform/index.ts";

/**
 * The line `self-install --modify-path` adds to a shell's startup file to put its directory on
 * PATH, the way rustup does: one line, marked, so a second run finds it (and adds nothing) and
 * `self-uninstall` takes exactly it out again.
 */
export const PROFILE_MARK = "# added by hookbox self-install; hookbox self-uninstall removes it";

export type ProfileSyntax = "posix" | "fish";

/** One startup file to put the line in. */
export interface ProfileFile {
  readonly file: string;
  readonly syntax: ProfileSyntax;
  /** Why this file: which shells read it. */
  readonly readBy: string;
}

type ProfileHost = Pick<RuntimeHost, "fs" | "env" | "homeDir">;

function shellName(env: ProfileHost["env"]): string {
  return (env.SHELL ?? "").split("/").pop() ?? "";
}

function fishConfD(host: ProfileHost): string {
  return `${host.env.XDG_CONFIG_HOME?.startsWith("/") ? host.env.XDG_CONFIG_HOME : `${host.homeDir()}/.config`}/fish/conf.d`;
}

/**
 * Every startup file that may hold the line: where self-install writes it and where
 * self-uninstall looks for it. ~/.profile for login shells (sh, dash, bash, and a desktop
 * session); bash's own login file when it has one (bash then skips ~/.profile); ~/.bashrc and
 * zsh's ~/.zshrc for the terminals they open; fish's conf.d, where a file of Hookbox's own holds it.
 */
export function profileFiles(host: ProfileHost): ProfileFile[] {
  const home = host.homeDir();
  const zdot = host.env.ZDOTDIR?.startsWith("/") ? host.env.ZDOTDIR : home;
  return [
    { file: `${home}/.profile`, syntax: "posix", readBy: "login shells" },
    { file: `${home}/.bash_profile`, syntax: "posix", readBy: "bash login shells" },
    { file: `${home}/.bash_login`, syntax: "posix", readBy: "bash login shells" },
    { file: `${home}/.bashrc`, syntax: "posix", readBy: "bash" },
    { file: `${zdot}/.zshrc`, syntax: "posix", readBy: "zsh" },
    { file: `${fishConfD(host)}/hookbox.fish`, syntax: "fish", readBy: "fish" },
  ];
}

/**
 * The files self-install writes the line to: ~/.profile always (created when missing); bash's
 * login file, ~/.bashrc and ~/.zshrc where they exist, and the user's own shell's file ($SHELL)
 * even when it does not yet; fish's when fish is the shell or is set up.
 */
export async function profileFilesToEdit(host: ProfileHost): Promise<ProfileFile[]> {
  const shell = shellName(host.env);
  const [profile, bashProfile, bashLogin, bashrc, zshrc, fish] = profileFiles(host) as [
    ProfileFile,
    ProfileFile,
    ProfileFile,
    ProfileFile,
    ProfileFile,
    ProfileFile,
  ];
  const exists = (path: string): Promise<boolean> => host.fs.exists(path);
  const chosen: ProfileFile[] = [profile];
  // bash reads the first of these it finds, and then not ~/.profile.
  if (await exists(bashProfile.file)) chosen.push(bashProfile);
  else if (await exists(bashLogin.file)) chosen.push(bashLogin);
  if (shell === "bash" || (await exists(bashrc.file))) chosen.push(bashrc);
  if (shell === "zsh" || (await exists(zshrc.file))) chosen.push(zshrc);
  if (shell === "fish" || (await exists(fishConfD(host).replace(/\/conf\.d$/, "")))) chosen.push(fish);
  return chosen;
}

/** `$HOME/…` for a directory under the home directory, so the line reads as the user would write it. */
function shown(dir: string, home: string): string {
  if (/["$`\\\n\r]/.test(dir))
    throw new HookboxError(
      "usage",
      `${dir} holds characters a shell line cannot quote plainly: add it to PATH in your shell's startup file yourself`,
    );
  return dir.startsWith(`${home}/`) ? `$HOME${dir.slice(home.length)}` : dir;
}

/** The marked line that puts `dir` first on PATH, unless it is there already (a login shell and its terminals both read a startup file). */
export function profileLine(dir: string, home: string, syntax: ProfileSyntax): string {
  const path = shown(dir, home);
  return syntax === "fish"
    ? `contains -- "${path}" $PATH; or set -gx PATH "${path}" $PATH  ${PROFILE_MARK}`
    : `case ":$PATH:" in *":${path}:"*) ;; *) export PATH="${path}:$PATH" ;; esac  ${PROFILE_MARK}`;
}

/** The text with the line added at the end (nothing when it is there); whether a missing final newline had to be added first. */
export function withProfileLine(
  text: string | undefined,
  line: string,
): { readonly text: string; readonly changed: boolean; readonly addedNewline: boolean } {
  const existing = text ?? "";
  if (existing.split(/\r?\n/).includes(line)) return { text: existing, changed: false, addedNewline: false };
  const addedNewline = existing !== "" && !existing.endsWith("\n");
  return { text: `${existing}${addedNewline ? "\n" : ""}${line}\n`, changed: true, addedNewline };
}

const marked = (line: string): boolean => line.trimEnd().endsWith(PROFILE_MARK);

/**
 * The text without every marked line; how many went. `addedNewline`: self-install ended the
 * file's last line before adding its own, so when its line is still the last one, that newline
 * goes too and the file is as it was.
 */
export function withoutProfileLines(text: string, addedNewline: boolean): { readonly text: string; readonly removed: number } {
  const lines = text.split(/(?<=\n)/);
  const kept = lines.filter((line) => !marked(line));
  const result = kept.join("");
  const lastWasOurs = lines.length > 0 && marked(lines[lines.length - 1] as string);
  return { text: addedNewline && lastWasOurs && result.endsWith("\n") ? result.slice(0, -1) : result, removed: lines.length - kept.length };
}

/** Lines the user wrote that run hookbox (`eval "$(hookbox completion bash)"`): self-uninstall names them, it does not edit them. */
export function linesRunningHookbox(text: string): { readonly line: number; readonly text: string }[] {
  return text
    .split(/\r?\n/)
    .map((content, index) => ({ line: index + 1, text: content }))
    .filter((entry) => /(^|[\s/"'(`$=])hookbox(\s|$)/.test(entry.text) && !marked(entry.text) && !/^\s*#/.test(entry.text));
}
