import type { FileHost } from "../../platform/index.ts";
import { dirname, normalizePath, underRoot } from "../../core/text/posix-path.ts";

/**
 * The system tier: Hookbox's state that only root can change, so that nothing the guarded agent
 * runs as its user can weaken a decision (`hookbox install --system`, SECURITY.md). Every path is
 * under a root directory: `/` on a real install; a throwaway directory for tests and images
 * (`--system-root DIR`, never an environment variable: the user sets those).
 */
export interface SystemTierPaths {
  /** The root everything below is under ("/" normally). */
  readonly root: string;
  /** The system policy: the operator file every user's own file and projects add to but never weaken. */
  readonly policyFile: string;
  readonly policyDir: string;
  /** The system's own hooks (the policy's default hooks_dirs entry: `hooks`, relative to the file). */
  readonly hooksDir: string;
  /** The root-owned binary every agent's managed settings run; on the default PATH. */
  readonly binary: string;
  /** What `install --system` wrote and what was there before, for `uninstall --system` to put back byte for byte. */
  readonly record: string;
}

export const SYSTEM_ROOT = "/";

export function systemTierPaths(root: string = SYSTEM_ROOT): SystemTierPaths {
  const base = normalizePath(root);
  const at = (path: string): string => underRoot(base, path);
  return {
    root: base,
    policyDir: at("/etc/hookbox"),
    policyFile: at("/etc/hookbox/hookbox.yaml"),
    hooksDir: at("/etc/hookbox/hooks"),
    binary: at("/usr/local/bin/hookbox"),
    record: at("/var/lib/hookbox/system-install.json"),
  };
}

/**
 * Where a process looks for the system policy. Every Hookbox applies it when it is there; under
 * `emit --system` (the entry an agent's managed settings run) it must be there and be root's,
 * or every event is denied: the tier that entry stands for is gone.
 */
export interface SystemPolicyLocation {
  readonly root: string;
  readonly path: string;
  readonly required: boolean;
}

export function systemPolicyLocation(root: string | undefined, required: boolean): SystemPolicyLocation {
  const paths = systemTierPaths(root ?? SYSTEM_ROOT);
  return { root: paths.root, path: paths.policyFile, required };
}

/** World- or group-writable. */
const WRITABLE_BY_OTHERS = 0o022;
const STICKY = 0o1000;

/**
 * Why `path` cannot be trusted as system state, or undefined when only root can change it: the
 * file (not a symbolic link) and every directory above it, as they really are, belong to root and
 * are writable by no one else — a directory with the sticky bit (/tmp) excepted, where others
 * cannot rename root's entries. What sudo asks of /etc/sudoers.
 */
export async function untrustedSystemPath(
  fs: Pick<FileHost, "owner" | "mode" | "realpath">,
  path: string,
  kind: "file" | "dir" = "file",
): Promise<string | undefined> {
  let info: { kind: string; uid: number };
  try {
    info = await fs.owner(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return code === "ENOENT" ? `${path} does not exist` : `${path} cannot be read (${(error as Error).message})`;
  }
  if (info.kind !== kind) return `${path} is a ${info.kind}, not a ${kind}${info.kind === "symlink" ? " (a link could be pointed elsewhere)" : ""}`;
  const own = await ownedByRootAlone(fs, path, false);
  if (own) return own;
  let dir: string;
  try {
    dir = await fs.realpath(dirname(path));
  } catch (error) {
    return `${dirname(path)} cannot be resolved (${(error as Error).message})`;
  }
  for (;;) {
    const problem = await ownedByRootAlone(fs, dir, true);
    if (problem) return problem;
    if (dir === "/") return undefined;
    dir = dirname(dir);
  }
}

async function ownedByRootAlone(fs: Pick<FileHost, "owner" | "mode">, path: string, directory: boolean): Promise<string | undefined> {
  const [info, mode] = await Promise.all([fs.owner(path).catch(() => undefined), fs.mode(path)]);
  if (!info || mode === undefined) return `${path} cannot be read`;
  if (info.uid !== 0) return `${path} belongs to uid ${info.uid}, not root: that user could change it`;
  if ((mode & WRITABLE_BY_OTHERS) !== 0 && !(directory && (mode & STICKY) !== 0))
    return `${path} is writable by ${(mode & 0o002) !== 0 ? "every user" : "its group"} (mode ${(mode & 0o7777).toString(8).padStart(4, "0")}): only root may be able to change it`;
  return undefined;
}
