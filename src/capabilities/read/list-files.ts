import { arity, boolOption, intOption, optionsArg, pathArg, stringListArg } from "../args.ts";
import type { HostMethod, InvocationScope } from "../capability.ts";
import { refused, renderCall } from "../denied.ts";
import { isAbsolute, join, relativeTo } from "../paths/posix.ts";

export const LIST_DEFAULT_FILES = 1000;
export const LIST_MAX_FILES = 10_000;
/** Directories opened by one recursive listing, and how deep it goes: time and memory stay bounded. */
const MAX_DIRECTORIES = 10_000;
const MAX_DEPTH = 64;

interface Pending {
  readonly real: string;
  readonly lexical: string;
  /** The path as it is returned: `dir` as the handler wrote it, joined with the names below it. */
  readonly shown: string;
  readonly depth: number;
}

/** One listed file with `details: true` (the seed engine's list_files shape); mtime in seconds since the epoch. */
export interface ListedFile {
  readonly path: string;
  readonly size: number;
  readonly mtime: number;
}

/**
 * hook.listFiles(dir, {recursive, extensions, maxFiles, hidden, details}) → regular files under
 * `dir`, sorted. Each path is `dir` as given joined with the names below it: a relative `dir`
 * gives paths relative to the workspace (what readFile takes), an absolute one absolute paths.
 * Only regular files the hook may read are listed; symlinks are never followed nor listed, FIFOs,
 * sockets and devices are skipped. Names starting with "." below `dir` (files and directories)
 * are skipped unless `hidden: true`, as the seed engine's list_files does; `details: true` gives
 * `{path, size, mtime}` instead of bare paths. At most maxFiles (default 1,000, at most 10,000).
 */
export function listFilesMethod(scope: InvocationScope): HostMethod {
  return async (args, call) => {
    arity("listFiles", args, 2);
    const dir = pathArg("listFiles", args[0]);
    call.target = dir;
    const options = optionsArg("listFiles", args[1], ["recursive", "extensions", "maxFiles", "hidden", "details"]);
    const recursive = boolOption("listFiles", options, "recursive", false);
    const hidden = boolOption("listFiles", options, "hidden", false);
    const details = boolOption("listFiles", options, "details", false);
    const maxFiles = intOption("listFiles", options, "maxFiles", { min: 0, max: LIST_MAX_FILES, fallback: LIST_DEFAULT_FILES });
    const extensions =
      options.extensions === undefined || options.extensions === null
        ? undefined
        : stringListArg("listFiles", "extensions", options.extensions, { maxItems: 64, maxChars: 32 }).map((ext) =>
            (ext.startsWith(".") ? ext : `.${ext}`).toLowerCase(),
          );
    const shownCall = renderCall("listFiles", [dir]);
    const { lexical, real } = await scope.paths.confine(shownCall, dir, "tree");
    const workspace = scope.paths.workspace;
    const relative = isAbsolute(dir) || workspace === undefined ? undefined : relativeTo(workspace, lexical);
    const queue: Pending[] = [{ real, lexical, shown: relative ?? lexical, depth: 0 }];
    const files: { shown: string; real: string }[] = [];
    for (let opened = 0; queue.length > 0 && files.length < maxFiles && opened < MAX_DIRECTORIES; opened++) {
      const at = queue.shift() as Pending;
      const listing = await listVerified(scope, shownCall, at.real, opened === 0);
      if (!listing) continue;
      for (const entry of [...listing.entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        if (!hidden && entry.name.startsWith(".")) continue;
        const child = {
          real: join(at.real, entry.name),
          lexical: join(at.lexical, entry.name),
          shown: join(at.shown, entry.name),
          depth: at.depth + 1,
        };
        if (entry.kind === "file") {
          if (extensions && !extensions.some((ext) => entry.name.toLowerCase().endsWith(ext))) continue;
          if (!(await scope.paths.permits(child.lexical, child.real))) continue;
          files.push(child);
          if (files.length >= maxFiles) break;
        } else if (entry.kind === "directory" && recursive && child.depth < MAX_DEPTH && (await scope.paths.permits(child.lexical, child.real))) {
          queue.push(child);
        }
      }
    }
    files.sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
    if (!details) return files.map((file) => file.shown);
    const listed: ListedFile[] = [];
    for (const file of files) {
      // lstat, as the listing saw it: a file that vanished or was swapped since is left out.
      const info = await scope.deps.io.lstat(file.real).catch(() => undefined);
      if (info?.kind === "file") listed.push({ path: file.shown, size: info.size, mtime: info.mtimeMs / 1000 });
    }
    return listed;
  };
}

/**
 * List a directory and prove the listing is of the checked directory (see read/open.ts). The
 * top directory must list; one below that fails (vanished, unreadable, swapped) is skipped.
 */
async function listVerified(scope: InvocationScope, call: string, real: string, top: boolean) {
  try {
    const listing = await scope.deps.io.listDirectory(real);
    const moved = listing.realPath !== undefined ? listing.realPath !== real : (await scope.deps.io.lstat(real)).id !== listing.info.id;
    if (moved) throw refused(scope.hookId, call, `${real} changed while it was being listed (a directory was swapped for a symbolic link)`);
    return listing;
  } catch (error) {
    if (top) throw error;
    return undefined;
  }
}
