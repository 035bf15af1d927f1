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
 * An agent's config directory from its environment variable (CLAUDE_CONFIG_DIR, CODEX_HOME),
 * else its default under the home directory. A relative value is taken from the project
 * directory, where the agent would be started.
 */
export function agentConfigDir(value: string | undefined, project: string, fallback: string): string {
  if (value === undefined || value.trim() === "") return fallback;
  return isAbsolutePath(value) ? value : joinPath(project, value);
}
