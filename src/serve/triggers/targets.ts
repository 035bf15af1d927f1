import type { ResolvedWatch } from "../../hooks/config/resolve.ts";
import type { CapabilityIO } from "../../platform/capability-io.ts";
import { relativeTo, resolvePath } from "../../core/text/posix-path.ts";
import type { WatchTarget } from "./watcher.ts";

/**
 * A watch's paths as targets: relative ones from base_dir (itself relative to the project), each
 * resolved through its symbolic links and kept only when it stays inside the project — a hook's
 * watch sees the project it belongs to, nothing else. A path not there yet is watched as a file
 * (auto) until it appears. Without a project (a user's hook, for events naming none) absolute
 * paths are watched as written, relative ones need an absolute base_dir.
 */
export async function watchTargets(
  watch: ResolvedWatch,
  project: string | undefined,
  io: Pick<CapabilityIO, "realPath" | "lstat">,
): Promise<{ targets: WatchTarget[]; workspace: string; problems: string[] }> {
  const problems: string[] = [];
  const base =
    watch.baseDir === undefined
      ? project
      : watch.baseDir.startsWith("/")
        ? resolvePath("/", watch.baseDir)
        : project === undefined
          ? undefined
          : resolvePath(project, watch.baseDir);
  // Outside any project, absolute paths stand on their own (as under base_dir: /); only relative ones need a base.
  const root = project ?? base ?? "/";
  const realRoot = await io.realPath(root).catch(() => root);
  const targets: WatchTarget[] = [];
  for (const written of watch.paths) {
    if (base === undefined && !written.startsWith("/")) {
      problems.push(`${written} is relative and this watch has no project: give base_dir an absolute path, or write ${written} as an absolute path`);
      continue;
    }
    const path = resolvePath(base ?? "/", written);
    const real = await io.realPath(path).catch(() => undefined);
    // A missing path cannot lead anywhere yet: it is judged as written, then placed in the real root.
    const inRoot = real !== undefined ? relativeTo(realRoot, real) : relativeTo(root, path);
    if (inRoot === undefined) {
      problems.push(`${written} is outside ${root}: not watched`);
      continue;
    }
    const judged = inRoot === "." ? realRoot : resolvePath(realRoot, inRoot);
    const info = await io.lstat(judged).catch(() => undefined);
    const kind = watch.kind !== "auto" ? watch.kind : info?.kind === "directory" ? "folder" : "file";
    targets.push({ path: judged, relative: inRoot, kind });
  }
  return { targets, workspace: realRoot, problems };
}
