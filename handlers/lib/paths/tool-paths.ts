// The paths a tool call touches: ONE implementation for both sides of the sandbox. The host's
// `match.paths` (src/hooks/registry/matcher.ts) imports this file, and the guest library hookbox:paths
// links the same file into handlers (scripts/embed-handlers.ts). So it imports nothing, touches
// no file system, and uses only `export function|const` declarations (the guest linker's forms).
//
// Sources of paths, every agent's (docs/agents.md, "Paths a tool call touches"):
// - tool_input keys naming one file or a list of files, at any depth (MultiEdit edits[], MCP
//   `files: [{ path }]`), file:// URIs included;
// - patches in tool_input: Codex apply_patch envelopes ("*** Add File: x", headers padded or
//   not, as Codex's parser trims them) and unified diffs ("--- a/x" / "+++ b/x");
// - the native event's `patch_files` (Codex, from the protocol adapter) and `link_targets`
//   (added by the host: where a named path that is a symbolic link really points).

/** Keys whose string value names one file or directory. */
export const PATH_KEYS: ReadonlySet<string> = new Set([
  // Claude, Gemini, Cursor, Copilot, Codex
  "file_path",
  "path",
  "notebook_path",
  "absolute_path",
  "target_file",
  "dir_path",
  "directory",
  // MCP servers: filesystem (source/destination), Serena (relative_path), JetBrains (pathInProject,
  // filePath), desktop-commander, GitHub (path), and common spellings
  "filePath",
  "filepath",
  "file",
  "filename",
  "fileName",
  "file_name",
  "relative_path",
  "relativePath",
  "pathInProject",
  "absolutePath",
  "targetFile",
  "uri",
  "file_uri",
  "fileUri",
  "source",
  "source_path",
  "sourcePath",
  "destination",
  "destination_path",
  "destinationPath",
  "dest",
  "dest_path",
  "target",
  "target_path",
  "targetPath",
  "new_path",
  "newPath",
  "old_path",
  "oldPath",
  "output_path",
  "outputPath",
  "output_file",
  "outputFile",
  "dir",
  "notebookPath",
]);

/** Keys whose array value lists files: strings, or objects with path keys ({ path, content }). */
export const PATH_LIST_KEYS: ReadonlySet<string> = new Set([
  "paths",
  "files",
  "file_paths",
  "filePaths",
  "filenames",
  "fileNames",
  "sources",
  "targets",
  "uris",
]);

/** Keys whose string value may hold a patch (Codex's apply_patch puts it in `command` or `input`). */
export const PATCH_KEYS: ReadonlySet<string> = new Set(["command", "patch", "input", "diff", "changes", "patch_text", "patchText", "unified_diff"]);

export const MAX_TOOL_PATHS = 256;
const MAX_DEPTH = 6;
const MAX_PATCH_CHARS = 1_000_000;
/** "*** Add File: x" … with any padding: Codex trims each line before reading it. */
const ENVELOPE_LINE = /^[ \t]*\*\*\*[ \t]*(?:(?:Add|Update|Delete)[ \t]+File|Move[ \t]+to)[ \t]*:[ \t]*(.*?)[ \t\r]*$/gm;
/** "--- a/x" then "+++ b/y": a unified diff's file header (git's a/ b/ prefixes removed, /dev/null skipped). */
const DIFF_HEADER = /^--- (?:a\/)?([^\t\r\n]+?)(?:\t[^\r\n]*)?\r?\n\+\+\+ (?:b\/)?([^\t\r\n]+?)(?:\t[^\r\n]*)?\r?$/gm;

/**
 * The file paths named in a patch: Codex apply_patch envelopes and unified diff headers, as
 * written (relative paths are relative to the workspace), bounded.
 */
export function patchPaths(text: string): string[] {
  const found: string[] = [];
  const body = text.length > MAX_PATCH_CHARS ? text.slice(0, MAX_PATCH_CHARS) : text;
  if (body.includes("***")) for (const m of body.matchAll(ENVELOPE_LINE)) if (m[1]) found.push(m[1]);
  if (body.includes("+++ ")) {
    for (const m of body.matchAll(DIFF_HEADER)) for (const p of [m[1], m[2]]) if (p && p !== "/dev/null") found.push(p.trim());
  }
  return found.slice(0, MAX_TOOL_PATHS);
}

/** A file:// URI's path (percent-decoded); other URIs (https:, …) name no local file. */
export function uriPath(value: string): string | undefined {
  const file = /^file:(?:\/\/(?:localhost)?)?(\/.*)$/i.exec(value);
  if (!file) return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? undefined : value;
  try {
    return decodeURIComponent(file[1] as string);
  } catch {
    return file[1];
  }
}

/**
 * The file paths a tool call names: tool_input's path keys at any depth, patches in it, and the
 * `patch_files` the Codex adapter lists. As written, in order, de-duplicated, at most 256.
 */
export function toolPaths(input: unknown, patchFiles?: unknown): string[] {
  const found: string[] = [];
  const push = (value: unknown): void => {
    if (typeof value !== "string" || value === "" || found.length >= MAX_TOOL_PATHS) return;
    const path = uriPath(value);
    if (path !== undefined && path !== "") found.push(path);
  };
  const walk = (value: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || found.length >= MAX_TOOL_PATHS || value === null || typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const item of value.slice(0, MAX_TOOL_PATHS)) walk(item, depth + 1);
      return;
    }
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      if (typeof child === "string") {
        if (PATH_KEYS.has(key)) push(child);
        else if (PATCH_KEYS.has(key)) patchPaths(child).forEach(push);
      } else if (Array.isArray(child) && PATH_LIST_KEYS.has(key)) {
        for (const item of child.slice(0, MAX_TOOL_PATHS)) {
          if (typeof item === "string") push(item);
          else walk(item, depth + 1);
        }
      } else walk(child, depth + 1);
    }
  };
  // A tool whose whole input is a patch (Codex's freeform apply_patch) sends it as a string.
  if (typeof input === "string") patchPaths(input).forEach(push);
  else walk(input, 0);
  if (Array.isArray(patchFiles)) patchFiles.slice(0, MAX_TOOL_PATHS).forEach(push);
  return [...new Set(found)];
}

/**
 * The paths an event's tool call touches: toolPaths of its tool_input and patch_files, then the
 * real targets of those that are symbolic links (`link_targets`, added by the host before any
 * hook sees the event). What `match.paths` matches and what guards judge.
 */
export function eventPaths(event: unknown): string[] {
  if (event === null || typeof event !== "object") return [];
  const record = event as Record<string, unknown>;
  const paths = toolPaths(record.tool_input, record.patch_files);
  const links = record.link_targets;
  if (links !== null && typeof links === "object" && !Array.isArray(links)) {
    for (const target of Object.values(links as Record<string, unknown>)) {
      if (typeof target === "string" && target !== "" && paths.length < MAX_TOOL_PATHS && !paths.includes(target)) paths.push(target);
    }
  }
  return paths;
}
