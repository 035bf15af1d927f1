import { HookboxError } from "../../core/errors.ts";
import type { FileHost } from "../../platform/index.ts";
import { EMPTY_LOCK, LOCK_FILE, parseLock, serializeLock, withEntry, type LockEntry, type LockFile } from "./lock.ts";
import { treeDigest, writeTree, type PackageTree } from "./tree.ts";

export type InstallFs = Pick<FileHost, "readText" | "kind" | "mkdirp" | "writeBytesAtomic" | "writeTextAtomic" | "rename" | "removeTree" | "remove">;

export function lockPath(hooksDir: string): string {
  return `${hooksDir}/${LOCK_FILE}`;
}

/** The lock file of a hooks directory (empty when there is none); a damaged one is an error, never overwritten. */
export async function readLock(fs: Pick<FileHost, "readText" | "kind">, hooksDir: string): Promise<LockFile> {
  const path = lockPath(hooksDir);
  if ((await fs.kind(path)) === "missing") return EMPTY_LOCK;
  const lock = parseLock(await fs.readText(path));
  if (typeof lock === "string")
    throw new HookboxError("config_invalid", `${path} ${lock}: fix it or remove it (its packages then run as ordinary hooks)`);
  return lock;
}

async function writeLock(fs: InstallFs, hooksDir: string, lock: LockFile): Promise<void> {
  await fs.mkdirp(hooksDir, 0o755);
  await fs.writeTextAtomic(lockPath(hooksDir), serializeLock(lock), 0o644);
}

export interface InstallRecord {
  readonly version: string | null;
  readonly source: string;
  readonly grants: readonly string[];
  readonly signer: LockEntry["signer"];
  readonly onError: "continue" | "deny";
}

/**
 * Install (or replace) a package's files as `<hooksDir>/<id>/`, then record them in the lock.
 * The new tree is written beside the old one and swapped in by rename; between the swap and the
 * lock write, a load sees files that do not match the lock, and fails closed.
 */
export async function installPackage(
  fs: InstallFs,
  hooksDir: string,
  id: string,
  tree: PackageTree,
  record: InstallRecord,
  now = new Date(),
): Promise<LockEntry> {
  const lock = await readLock(fs, hooksDir);
  const target = `${hooksDir}/${id}`;
  const existing = await fs.kind(target);
  if (existing !== "missing" && !Object.hasOwn(lock.packages, id))
    throw new HookboxError(
      "conflict",
      `${target} exists and is not an installed package (it is not in ${lockPath(hooksDir)}): move it away, or pick another hooks directory`,
    );
  const stamp = `${now.getTime().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const staging = `${hooksDir}/.${id}.installing-${stamp}`;
  const retired = `${hooksDir}/.${id}.replaced-${stamp}`;
  await fs.mkdirp(hooksDir, 0o755);
  try {
    await writeTree(fs, staging, tree);
    if (existing !== "missing") await fs.rename(target, retired);
    await fs.rename(staging, target);
  } finally {
    await fs.removeTree(staging);
  }
  await fs.removeTree(retired);
  const digest = await treeDigest(tree);
  const entry: LockEntry = {
    dir: id,
    version: record.version,
    source: record.source,
    integrity: digest.integrity,
    files: digest.files,
    grants: record.grants,
    signer: record.signer,
    on_error: record.onError,
    installed_at: now.toISOString(),
  };
  await writeLock(fs, hooksDir, withEntry(await readLock(fs, hooksDir), id, entry));
  return entry;
}

/** Remove a package's files, then its lock entry. */
export async function removePackage(fs: InstallFs, hooksDir: string, id: string): Promise<LockEntry> {
  const lock = await readLock(fs, hooksDir);
  const entry = Object.hasOwn(lock.packages, id) ? lock.packages[id] : undefined;
  if (!entry)
    throw new HookboxError(
      "not_found",
      `no package ${id} is installed in ${hooksDir} (${lockPath(hooksDir)} lists: ${Object.keys(lock.packages).join(", ") || "none"})`,
    );
  await fs.removeTree(`${hooksDir}/${entry.dir}`);
  await writeLock(fs, hooksDir, withEntry(lock, id, undefined));
  return entry;
}
