import { describe, expect, it } from "vitest";
import { findProjectRoot } from "../../src/decide/project.ts";

type Kind = "file" | "dir" | "socket" | "symlink" | "other" | "missing";

/** A file system of what lstat would say at each path; everything else is missing. */
function files(entries: Record<string, Kind>): { kind(path: string): Promise<Kind> } {
  return { kind: async (path) => entries[path] ?? "missing" };
}

const HOME = "/home/dev";

// The nearest directory at or above the agent's cwd holding `.hookbox/` or `.git` (a directory,
// a link, or a worktree's `.git` file); else the cwd itself. Home's own `.hookbox` is not a marker.
describe("findProjectRoot", () => {
  it.each<[string, string, Record<string, Kind>, string]>([
    ["a .hookbox directory at the cwd", "/home/dev/app", { "/home/dev/app/.hookbox": "dir" }, "/home/dev/app"],
    ["a .git directory at the cwd", "/home/dev/app", { "/home/dev/app/.git": "dir" }, "/home/dev/app"],
    ["both markers at the cwd", "/home/dev/app", { "/home/dev/app/.hookbox": "dir", "/home/dev/app/.git": "dir" }, "/home/dev/app"],
    ["a .git directory two levels up", "/home/dev/app/src/lib", { "/home/dev/app/.git": "dir" }, "/home/dev/app"],
    ["a worktree's .git file", "/home/dev/wt/src", { "/home/dev/wt/.git": "file" }, "/home/dev/wt"],
    ["a .git symbolic link", "/home/dev/app", { "/home/dev/app/.git": "symlink" }, "/home/dev/app"],
    ["a .hookbox symbolic link", "/home/dev/app/src", { "/home/dev/app/.hookbox": "symlink" }, "/home/dev/app"],
    [
      "the nearest marker wins over one further up",
      "/home/dev/app/sub/x",
      { "/home/dev/app/.git": "dir", "/home/dev/app/sub/.git": "file" },
      "/home/dev/app/sub",
    ],
    [
      "a .hookbox file is not a marker (near miss)",
      "/home/dev/app/src",
      { "/home/dev/app/src/.hookbox": "file", "/home/dev/app/.git": "dir" },
      "/home/dev/app",
    ],
    [
      "a .git socket is not a marker (near miss)",
      "/home/dev/app/src",
      { "/home/dev/app/src/.git": "socket", "/home/dev/app/.git": "dir" },
      "/home/dev/app",
    ],
    ["home's .hookbox is Hookbox's runtime directory, not a project", "/home/dev/notes", { "/home/dev/.hookbox": "dir" }, "/home/dev/notes"],
    ["home's .git still marks home", "/home/dev/notes", { "/home/dev/.hookbox": "dir", "/home/dev/.git": "dir" }, "/home/dev"],
    ["no marker anywhere: the cwd itself", "/srv/data/x", {}, "/srv/data/x"],
    ["a marker at the root", "/srv/x", { "/.git": "dir" }, "/"],
    ["a cwd written with dots and slashes", "/home/dev/app/./src//", { "/home/dev/app/.git": "dir" }, "/home/dev/app"],
  ])("%s", async (_name, cwd, entries, root) => {
    expect(await findProjectRoot(files(entries), cwd, HOME)).toBe(root);
  });
});
