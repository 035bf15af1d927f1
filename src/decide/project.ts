import type { FileHost } from "../platform/index.ts";
import { dirname, normalizePath } from "../core/text/posix-path.ts";

/** What marks a directory as a project's root: its own hooks, or a repository. */
const MARKERS = [".hookbox", ".git"] as const;

/**
 * The project an event belongs to: the nearest directory at or above `start` holding `.hookbox/`
 * or `.git`, else `start` itself. Claude Code runs hook commands in its current directory, which
 * moves with the agent's `cd`; the project's guards must not. Home's own `.hookbox` is Hookbox's
 * runtime directory when XDG_RUNTIME_DIR is unset, not a project marker.
 */
export async function findProjectRoot(fs: Pick<FileHost, "kind"> & Partial<Pick<FileHost, "probe">>, start: string, home: string): Promise<string> {
  const origin = normalizePath(start);
  const probe = fs.probe;
  for (let dir = origin; ; dir = dirname(dir)) {
    // Either marker makes `dir` the root. Every event waits on this: looked at at once where the
    // runtime can (PathProbe), else both markers together.
    const markers = MARKERS.filter((marker) => !(marker === ".hookbox" && dir === home));
    const paths = markers.map((marker) => `${dir === "/" ? "" : dir}/${marker}`);
    const kinds = probe ? paths.map((path) => probe.kind(path)) : await Promise.all(paths.map((path) => fs.kind(path)));
    if (kinds.some((kind, index) => kind === "dir" || kind === "symlink" || (markers[index] === ".git" && kind === "file"))) return dir;
    if (dir === "/") return origin;
  }
}
