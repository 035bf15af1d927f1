import { HookboxError } from "../../core/errors.ts";
import type { FileHost } from "../../platform/index.ts";
import { checkPath, compareBytes } from "./tar.ts";

/** A package's files by relative path: what is packed, verified, installed and hashed. */
export type PackageTree = ReadonlyMap<string, Uint8Array>;

/** What a package may weigh: generous for a hook (YAML, a handler, fixtures), small for a hostile bundle. */
export const TREE_LIMITS = { maxEntries: 1000, maxFileBytes: 4 * 1024 * 1024, maxTotalBytes: 16 * 1024 * 1024 } as const;

/** Directories never part of a package: a repository's own metadata. */
const SKIPPED = new Set([".git"]);

type TreeFs = Pick<FileHost, "listDir" | "kind" | "readBytes">;

/**
 * A package directory's regular files. A symbolic link, a device or a FIFO anywhere in it is
 * refused (a link could carry a file from outside into the package), as is a tree over the limits.
 */
export async function readTree(fs: TreeFs, dir: string): Promise<PackageTree> {
  const files = new Map<string, Uint8Array>();
  let total = 0;
  const walk = async (relative: string, depth: number): Promise<void> => {
    const absolute = relative === "" ? dir : `${dir}/${relative}`;
    const entries = await fs.listDir(absolute);
    for (const entry of entries.sort((a, b) => compareBytes(a.name, b.name))) {
      if (depth === 0 && SKIPPED.has(entry.name)) continue;
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      const checked = checkPath(path);
      if (typeof checked !== "string") throw new HookboxError("config_invalid", `${dir}/${path}: ${checked.error}`);
      const kind = await fs.kind(`${dir}/${path}`);
      if (kind === "dir") {
        await walk(path, depth + 1);
        continue;
      }
      if (kind !== "file")
        throw new HookboxError(
          "config_invalid",
          `${dir}/${path} is ${kind === "symlink" ? "a symbolic link" : "not a regular file"}: a package holds regular files only`,
        );
      const data = await fs.readBytes(`${dir}/${path}`);
      if (data.length > TREE_LIMITS.maxFileBytes)
        throw new HookboxError(
          "config_invalid",
          `${dir}/${path}: ${data.length} bytes, more than the ${TREE_LIMITS.maxFileBytes} a packaged file may have`,
        );
      total += data.length;
      if (total > TREE_LIMITS.maxTotalBytes || files.size >= TREE_LIMITS.maxEntries)
        throw new HookboxError("config_invalid", `${dir}: more than ${TREE_LIMITS.maxEntries} files or ${TREE_LIMITS.maxTotalBytes} bytes`);
      files.set(path, data);
    }
  };
  await walk("", 0);
  return sortedTree(files);
}

export function sortedTree(files: ReadonlyMap<string, Uint8Array> | Iterable<readonly [string, Uint8Array]>): PackageTree {
  return new Map([...files].sort(([a], [b]) => compareBytes(a, b)));
}

export async function sha256(data: Uint8Array | string): Promise<Uint8Array> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
}

export function hex(bytes: Uint8Array): string {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** What a lock file records of a tree: each file's SHA-256, and one hash over them all. */
export interface TreeDigest {
  /** `sha256-<base64>` of the manifest: one line `<sha256 hex>  <path>` per file, in byte order of paths. */
  readonly integrity: string;
  readonly files: Readonly<Record<string, string>>;
}

/** Normalized: paths sorted, contents only (no modes, owners or times), so a fresh clone hashes the same. */
export async function treeDigest(tree: PackageTree): Promise<TreeDigest> {
  const files: Record<string, string> = {};
  const lines: string[] = [];
  for (const [path, data] of sortedTree(tree)) {
    const digest = hex(await sha256(data));
    files[path] = digest;
    lines.push(`${digest}  ${path}\n`);
  }
  return { integrity: `sha256-${base64(await sha256(lines.join("")))}`, files };
}

/** How a tree differs from a recorded digest, in words ("handler.ts changed, x.ts added"); undefined when it does not. */
export function treeChanges(recorded: Readonly<Record<string, string>>, current: Readonly<Record<string, string>>): string | undefined {
  const changed: string[] = [];
  for (const [path, digest] of Object.entries(recorded)) {
    if (!Object.hasOwn(current, path)) changed.push(`${path} removed`);
    else if (current[path] !== digest) changed.push(`${path} changed`);
  }
  for (const path of Object.keys(current)) if (!Object.hasOwn(recorded, path)) changed.push(`${path} added`);
  return changed.length === 0 ? undefined : changed.sort(compareBytes).join(", ");
}

/** Write a tree under `dir` (which must not exist yet): directories 0755, files 0644. */
export async function writeTree(fs: Pick<FileHost, "mkdirp" | "writeBytesAtomic">, dir: string, tree: PackageTree): Promise<void> {
  await fs.mkdirp(dir, 0o755);
  for (const [path, data] of tree) {
    const slash = path.lastIndexOf("/");
    if (slash > 0) await fs.mkdirp(`${dir}/${path.slice(0, slash)}`, 0o755);
    await fs.writeBytesAtomic(`${dir}/${path}`, data, 0o644);
  }
}
