import type { NativeEvent } from "../../core/events/types.ts";
import type { FileHost } from "../../platform/types.ts";
import { dirname, isInside, normalizePath, relativeTo, resolvePath } from "../../core/text/posix-path.ts";
import { shCommandText, shWrites } from "../../../handlers/lib/shell/index.ts";
import { eventPaths } from "./tool-paths.ts";

/** What resolving links needs from the runtime: lstat, readlink and realpath, nothing that opens a file. */
export type LinkFiles = Pick<FileHost, "kind" | "readLink" | "realpath"> & Partial<Pick<FileHost, "probe">>;

/** Paths of one tool call that are resolved; the rest are judged as written. */
export const MAX_LINKED_PATHS = 32;
/** Symbolic links followed for one path, as the kernel's ELOOP limit (40). */
const MAX_HOPS = 40;
const MAX_PATH_CHARS = 4096;

/**
 * The event with `link_targets`: for each path its tool call names (eventPaths) that is, or
 * passes through, a symbolic link, where it really points — so a Write to `notes.txt → .env` is
 * judged as a write to .env by `match.paths` and by every guard, without any hook being granted
 * the file system. Runs on the host before matching, on every event with paths.
 *
 * - A target inside the workspace is shown under the workspace path (`cwd`), as paths are named.
 * - Dangling links are followed too: writing through one creates its target.
 * - Only lstat, readlink and realpath are used: nothing is opened, read or created.
 * - A `link_targets` the agent sent is dropped: the field says what the host found.
 * - For Bash, the paths it writes by name (bashWritePaths) are resolved too.
 */
export async function withLinkTargets(event: NativeEvent, files: LinkFiles, home?: string): Promise<NativeEvent> {
  const { link_targets: _sent, ...rest } = event;
  const cwd = typeof event.cwd === "string" && event.cwd.startsWith("/") ? normalizePath(event.cwd) : undefined;
  const named = [...new Set([...eventPaths(rest), ...bashWritePaths(rest, cwd, home)])];
  if (named.length === 0) return _sent === undefined ? event : rest;
  const reals = new Map<string, Promise<string | undefined>>();
  const realOf = (dir: string): Promise<string | undefined> => {
    const known = reals.get(dir) ?? physicalPath(files, dir);
    reals.set(dir, known);
    return known;
  };
  const targets: Record<string, string> = {};
  for (const path of named.slice(0, MAX_LINKED_PATHS)) {
    if (path.length > MAX_PATH_CHARS || path.includes("\0")) continue;
    const lexical = path.startsWith("/") ? normalizePath(path) : cwd ? resolvePath(cwd, path) : undefined;
    if (lexical === undefined || lexical === "/") continue;
    // Walked as written: after a link, ".." climbs from the link's target, as the kernel does.
    const real = await physicalPath(files, path.startsWith("/") ? path : `${cwd}/${path}`);
    if (real === undefined) continue;
    // Links the machine's layout puts above the path (/home → /usr/home, /tmp → /private/tmp) are
    // not the call's doing: a path is compared under its workspace, or under its own directory
    // when outside it, so only links inside the workspace and the path's own last link count.
    const anchor = cwd !== undefined && isInside(cwd, lexical) ? cwd : dirname(lexical);
    const shown = (await under(anchor, real, realOf)) ?? (cwd !== undefined ? await under(cwd, real, realOf) : undefined) ?? real;
    if (shown !== lexical) targets[path] = shown;
  }
  return Object.keys(targets).length > 0 ? { ...rest, link_targets: targets } : rest;
}

/** A Bash command longer than this is not read for its redirections here (self-protect refuses one over 500,000 characters). */
const MAX_COMMAND_CHARS = 500_000;
/**
 * What writes through a symbolic link to where it leads (open(2) follows it): redirections, tee,
 * cp's destination, dd of=, truncate … — not rm, mv, ln, install or sed -i, which act on the link itself.
 */
const FOLLOWS_LINKS = /^(?:(?:xargs|parallel|find -exec) )?(?:a redirection|tee|cp|dd|truncate|shred|curl|wget|scp|sed w)$/;

/**
 * The files a Bash command writes through by a plain path (redirections, tee, cp …: hookbox:shell's
 * shWrites, the reading the guards use), absolute: a redirection into `notes.txt → .env` writes
 * .env, and the guards judge it so, as they judge a Write through the same link.
 */
function bashWritePaths(event: Omit<NativeEvent, "link_targets">, cwd: string | undefined, home: string | undefined): string[] {
  if (event.tool_name !== "Bash") return [];
  const input = event.tool_input as Record<string, unknown> | undefined;
  const command = shCommandText(input?.command);
  if (command === "" || command.length > MAX_COMMAND_CHARS) return [];
  const paths: string[] = [];
  for (const target of shWrites(command, cwd)) {
    if (target.path === undefined || target.contents || paths.length >= MAX_LINKED_PATHS) continue;
    if (!FOLLOWS_LINKS.test(target.by) && target.named !== "writes") continue;
    const path = target.path.startsWith("~/")
      ? home === undefined
        ? undefined
        : `${home}${target.path.slice(1)}`
      : target.path.startsWith("/")
        ? target.path
        : target.cwd !== undefined
          ? resolvePath(target.cwd, target.path)
          : undefined;
    if (path !== undefined) paths.push(path);
  }
  return paths;
}

/** `real` written under `dir` (as named) when it is inside dir's real path. */
async function under(dir: string, real: string, realOf: (dir: string) => Promise<string | undefined>): Promise<string | undefined> {
  const realDir = await realOf(dir);
  const inside = realDir !== undefined ? relativeTo(realDir, real) : undefined;
  return inside !== undefined ? resolvePath(dir, inside) : undefined;
}

/**
 * Where an absolute path really leads, every symbolic link resolved — also when the path does
 * not exist yet (its missing tail is kept as written) or ends in a dangling link. Undefined for
 * a link loop or an unreadable link.
 */
export async function physicalPath(files: LinkFiles, absolute: string): Promise<string | undefined> {
  // Every event with paths asks: at once where the runtime can (PathProbe).
  if (files.probe) return files.probe.realpath(absolute) ?? (await walkLinks(files, absolute)).real;
  try {
    return await files.realpath(absolute);
  } catch {
    // Something on the way is missing, or the path ends in a dangling link: walk it.
  }
  return (await walkLinks(files, absolute)).real;
}

/** A path walked link by link: each symbolic link met (as named on the way), and where it leads. */
export interface LinkWalk {
  readonly links: readonly string[];
  /** Where the path leads; undefined for a link loop or an unreadable link. */
  readonly real: string | undefined;
  /** How far the walk got (the directory the loop or unreadable link is in, otherwise `real`). */
  readonly reached: string;
}

/**
 * Walks `absolute` one entry at a time, following each symbolic link (the link itself, a linked
 * directory above it) as the kernel would, without opening or creating anything. Below a missing
 * entry nothing exists, so nothing there is a link: the tail is kept as written.
 */
export async function walkLinks(files: Pick<FileHost, "kind" | "readLink"> & Partial<Pick<FileHost, "probe">>, absolute: string): Promise<LinkWalk> {
  const probe = files.probe;
  const kindOf = probe ? (path: string) => probe.kind(path) : (path: string) => files.kind(path).catch(() => "missing" as const);
  const readLink = probe ? (path: string) => probe.readLink(path) : (path: string) => files.readLink(path).catch(() => undefined);
  const links: string[] = [];
  let real = "";
  const pending = absolute.split("/").filter(Boolean).reverse();
  let hops = 0;
  while (pending.length > 0) {
    const part = pending.pop() as string;
    if (part === ".") continue;
    if (part === "..") {
      real = real.slice(0, real.lastIndexOf("/"));
      continue;
    }
    const next = `${real}/${part}`;
    const kind = await kindOf(next);
    if (kind === "symlink") {
      const target = ++hops > MAX_HOPS ? undefined : await readLink(next);
      if (target === undefined) return { links, real: undefined, reached: real || "/" };
      links.push(next);
      if (target.startsWith("/")) real = "";
      pending.push(...target.split("/").filter(Boolean).reverse());
      continue;
    }
    real = next;
    if (kind === "missing") {
      const whole = normalizePath(`${real}/${pending.reverse().join("/")}`);
      return { links, real: whole, reached: whole };
    }
  }
  return { links, real: real || "/", reached: real || "/" };
}
