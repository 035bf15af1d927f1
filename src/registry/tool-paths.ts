/**
 * The file paths a tool call touches, found in tool_input under the names the agents use:
 * Claude (file_path, path, notebook_path, MultiEdit edits[].file_path), Gemini (absolute_path,
 * file_path, path), Cursor/Windsurf (target_file, file_path), Copilot (path), and Codex
 * apply_patch bodies ("*** Update File: src/x.ts").
 */
const PATH_KEYS = new Set(["file_path", "filePath", "path", "notebook_path", "absolute_path", "target_file", "dir_path", "directory"]);
const PATH_LIST_KEYS = new Set(["paths", "files", "file_paths"]);
const PATCH_KEYS = new Set(["patch", "input", "diff"]);
const PATCH_FILE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm;
const MAX_PATHS = 256;
const MAX_DEPTH = 4;

export function toolPaths(toolInput: unknown): string[] {
  const found: string[] = [];
  collect(toolInput, 0, found);
  return [...new Set(found)].slice(0, MAX_PATHS);
}

function collect(value: unknown, depth: number, found: string[]): void {
  if (depth > MAX_DEPTH || found.length >= MAX_PATHS || value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, MAX_PATHS)) collect(item, depth + 1, found);
    return;
  }
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (typeof child === "string") {
      if (PATH_KEYS.has(key) && child.length > 0 && child.length < 4096) found.push(child);
      else if (PATCH_KEYS.has(key) && child.includes("*** ")) {
        for (const match of child.matchAll(PATCH_FILE)) {
          const path = (match[1] as string).trim();
          if (path.length > 0 && path.length < 4096) found.push(path);
          if (found.length >= MAX_PATHS) break;
        }
      }
    } else if (Array.isArray(child) && PATH_LIST_KEYS.has(key)) {
      for (const item of child.slice(0, MAX_PATHS)) if (typeof item === "string" && item.length > 0 && item.length < 4096) found.push(item);
    } else if (key === "edits" || typeof child === "object") {
      collect(child, depth + 1, found);
    }
  }
}
