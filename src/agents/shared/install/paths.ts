import { HookboxError } from "../../../core/errors.ts";
import type { AgentConfigDir } from "../row.ts";
import type { InstallDirs } from "./types.ts";

/** A path under a directory, in that directory's own separator style (a Windows home stays backslashed). */
export function joinPath(base: string, ...parts: readonly string[]): string {
  const separator = base.includes("\\") && !base.includes("/") ? "\\" : "/";
  const trimmed = base.replace(/[\\/]+$/, "");
  return [trimmed === "" && base !== "" ? "" : trimmed, ...parts].join(separator);
}

export function isAbsolutePath(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

/**
 * An agent's config directory (its table row's configDir) from its environment variable, else
 * its default under the home directory. A relative value is taken from the project directory,
 * where the agent would be started.
 */
export function agentConfigDir(configDir: AgentConfigDir, dirs: Pick<InstallDirs, "home" | "project" | "env">): string {
  const value = dirs.env?.[configDir.env];
  if (value === undefined || value.trim() === "") return joinPath(dirs.home, configDir.home);
  return isAbsolutePath(value) ? value : joinPath(dirs.project, value);
}

/** The agent's user config directory, as the installers' table resolved it for its planner (InstallDirs.configDir). */
export function userConfigDir(dirs: InstallDirs): string {
  if (dirs.configDir === undefined)
    throw new HookboxError("internal", "an agent's config directory was asked for without its table row resolving it");
  return dirs.configDir;
}
