import type { FileHost } from "../runtime/index.ts";
import { dirname, normalizePath } from "../text/posix-path.ts";

/** What marks a directory as a project's root: its own hooks, or a repository. */
const MARKERS = [".hookbox", ".git"] as const;

/**
 * The project an event belongs to: the nearest directory at or above `start` holding `.hookbox/`
 * or `.git`, else `start` itself. Claude Code runs hook commands in its current directory, which
 * moves with the agent's `cd`; the project's guards must not. Home's own `.hookbox` is Hookbox's
 * runtime directory when XDG_RUNTIME_DIR is unset, not a project marker.
 */
export async function findProjectRoot(fs: Pick<FileHost, "kind">, start: string, home: string): Promise<string> {
  const origin = normalizePath(start);
  for (let dir = origin; ; dir = dirname(dir)) {
    for (const marker of MARKERS) {
      if (marker === ".hookbox" && dir === home) continue;
      const kind = await fs.kind(`${dir === "/" ? "" : dir}/${marker}`);
      if (kind === "dir" || kind === "symlink" || (marker === ".git" && kind === "file")) return dir;
    }
    if (dir === "/") return origin;
  }
}
