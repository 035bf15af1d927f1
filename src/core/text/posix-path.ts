/**
 * POSIX path helpers on plain strings (no runtime APIs: the matcher and config code are pure).
 * Tool inputs are agent-controlled: `..` is resolved lexically so "src/../../etc/x" is seen as
 * what it points to, not as something under src/.
 */
export function normalizePath(path: string): string {
  const absolute = path.startsWith("/");
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length > 0 && parts[parts.length - 1] !== "..") parts.pop();
      else if (!absolute) parts.push("..");
      continue;
    }
    parts.push(part);
  }
  const joined = parts.join("/");
  return absolute ? `/${joined}` : joined || ".";
}

export function resolvePath(base: string, path: string): string {
  return normalizePath(path.startsWith("/") ? path : `${base}/${path}`);
}

export function dirname(path: string): string {
  const normalized = normalizePath(path);
  const index = normalized.lastIndexOf("/");
  if (index <= 0) return normalized.startsWith("/") ? "/" : ".";
  return normalized.slice(0, index);
}

/** True when `path` is `root` or inside it (component-wise: /root is not inside /ro). */
export function isInside(root: string, path: string): boolean {
  const r = normalizePath(root);
  const p = normalizePath(path);
  return p === r || p.startsWith(r.endsWith("/") ? r : `${r}/`);
}

export function relativeTo(root: string, path: string): string | undefined {
  const r = normalizePath(root);
  const p = normalizePath(path);
  if (p === r) return ".";
  return isInside(r, p) ? p.slice(r === "/" ? 1 : r.length + 1) : undefined;
}

/** An absolute path as it is under another root directory: `/etc/x` under `/tmp/r` is `/tmp/r/etc/x` (under `/`, itself). */
export function underRoot(root: string, path: string): string {
  const base = normalizePath(root);
  return base === "/" ? normalizePath(path) : normalizePath(`${base}/${path}`);
}
