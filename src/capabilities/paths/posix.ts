/**
 * POSIX path arithmetic, pure (no file system): capabilities may not import node:path, and a
 * lexical normalisation must be the same on every runtime. Hookbox's capabilities are POSIX-only.
 */

export function isAbsolute(path: string): boolean {
  return path.startsWith("/");
}

/** Collapse `//`, `.` and `..` (never above `/`) and drop a trailing slash. `path` must be absolute. */
export function normalize(path: string): string {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  return `/${out.join("/")}`;
}

/** `path` resolved against `base` (absolute), normalised; undefined when relative and there is no base. */
export function resolvePath(base: string | undefined, path: string): string | undefined {
  if (isAbsolute(path)) return normalize(path);
  return base === undefined ? undefined : normalize(`${base}/${path}`);
}

export function join(dir: string, name: string): string {
  if (dir === "") return name;
  return dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
}

export function basename(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/** True when `path` is `root` or below it (`/root` does not contain `/rootX`). */
export function isWithin(root: string, path: string): boolean {
  if (root === "/") return path.startsWith("/");
  return path === root || path.startsWith(`${root}/`);
}

/** `path` relative to `root` ("" for root itself), or undefined when it is not within it. */
export function relativeTo(root: string, path: string): string | undefined {
  if (!isWithin(root, path)) return undefined;
  if (path === root) return "";
  return root === "/" ? path.slice(1) : path.slice(root.length + 1);
}

export function dirname(path: string): string {
  const index = path.lastIndexOf("/");
  return index <= 0 ? "/" : path.slice(0, index);
}
