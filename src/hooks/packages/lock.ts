import { HOOK_ID } from "../config/schema.ts";
import { compareBytes } from "./tar.ts";

/**
 * `hookbox.lock`, in the hooks directory it describes: one entry per installed package (keyed
 * by hook id, installed in the directory of that name beside the lock). What was installed from
 * where, the hash of every file, and the grants the user accepted. At load, a package whose
 * files no longer match is not run: it becomes a broken entry saying what changed.
 */
export const LOCK_FILE = "hookbox.lock";
export const LOCK_VERSION = 1;

export interface LockSigner {
  /** The minisign key id, as minisign prints it (hex). */
  readonly key_id: string;
  readonly trusted_comment: string;
}

export interface LockEntry {
  /** The directory beside the lock the package is installed in (its hook id). */
  readonly dir: string;
  readonly version: string | null;
  /** Where it came from: `dir:/abs`, `bundle:/abs/x-1.0.0.tar.gz`, `git:<url>#<commit>`, `url:https://…`, `import:/abs/settings.json`, `source:<fleet source>`. */
  readonly source: string;
  /** `sha256-<base64>` of the installed tree's manifest (tree.ts treeDigest). */
  readonly integrity: string;
  /** SHA-256 (hex) of each installed file, by path relative to `dir`. */
  readonly files: Readonly<Record<string, string>>;
  /** The grants the user accepted, as grant keys (`read ${workspace}/**`, `run git diff *` …). */
  readonly grants: readonly string[];
  readonly signer: LockSigner | null;
  /** The hook's on_error when installed: what a tampered copy fails by, whatever its edited YAML now says. */
  readonly on_error: "continue" | "deny";
  readonly installed_at: string;
}

export interface LockFile {
  readonly v: typeof LOCK_VERSION;
  readonly packages: Readonly<Record<string, LockEntry>>;
}

export const EMPTY_LOCK: LockFile = { v: LOCK_VERSION, packages: {} };

const isString = (value: unknown): value is string => typeof value === "string";

function entryProblem(id: string, value: unknown): string | undefined {
  if (!HOOK_ID.test(id)) return `${JSON.stringify(id)} is not a hook id`;
  const entry = value as Partial<LockEntry> | null;
  if (entry === null || typeof entry !== "object") return `${id}: not an object`;
  if (entry.dir !== id) return `${id}: dir must be ${JSON.stringify(id)}`;
  if (!(entry.version === null || isString(entry.version))) return `${id}: version must be a string or null`;
  if (!isString(entry.source) || !isString(entry.integrity) || !isString(entry.installed_at))
    return `${id}: source, integrity and installed_at must be strings`;
  if (
    !entry.files ||
    typeof entry.files !== "object" ||
    !Object.values(entry.files).every((digest) => isString(digest) && /^[0-9a-f]{64}$/.test(digest))
  )
    return `${id}: files must map paths to SHA-256 hex digests`;
  if (!Array.isArray(entry.grants) || !entry.grants.every(isString)) return `${id}: grants must be a list of strings`;
  if (entry.on_error !== "continue" && entry.on_error !== "deny") return `${id}: on_error must be "continue" or "deny"`;
  const signer = entry.signer;
  if (!(signer === null || (signer && isString(signer.key_id) && isString(signer.trusted_comment))))
    return `${id}: signer must be null or {key_id, trusted_comment}`;
  return undefined;
}

/** A lock file's text, checked; a message naming the problem when it is not a valid lock file (never half-read). */
export function parseLock(text: string): LockFile | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not valid JSON (${(error as Error).message})`;
  }
  const lock = value as Partial<LockFile> | null;
  if (
    lock === null ||
    typeof lock !== "object" ||
    lock.v !== LOCK_VERSION ||
    !lock.packages ||
    typeof lock.packages !== "object" ||
    Array.isArray(lock.packages)
  ) {
    return `not a version ${LOCK_VERSION} lock file (expected {"v": ${LOCK_VERSION}, "packages": {…}})`;
  }
  for (const [id, entry] of Object.entries(lock.packages)) {
    const problem = entryProblem(id, entry);
    if (problem) return problem;
  }
  return lock as LockFile;
}

/** Stable text: packages and files in byte order, so a lock file diffs cleanly under version control. */
export function serializeLock(lock: LockFile): string {
  const packages = Object.fromEntries(
    Object.entries(lock.packages)
      .sort(([a], [b]) => compareBytes(a, b))
      .map(([id, entry]) => [id, { ...entry, files: Object.fromEntries(Object.entries(entry.files).sort(([a], [b]) => compareBytes(a, b))) }]),
  );
  return `${JSON.stringify({ v: LOCK_VERSION, packages }, null, 2)}\n`;
}

export function withEntry(lock: LockFile, id: string, entry: LockEntry | undefined): LockFile {
  const packages = { ...lock.packages };
  if (entry === undefined) delete packages[id];
  else packages[id] = entry;
  return { v: LOCK_VERSION, packages };
}
