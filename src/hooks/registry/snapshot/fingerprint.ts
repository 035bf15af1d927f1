import type { DigestHost, FileHost } from "../../../platform/index.ts";

/**
 * One input of a load as it was when the load read it: a file's content, a directory's entries,
 * where symlinks led — never a modification time. A cached load is valid exactly while every one
 * of its inputs still has the same fingerprint.
 */
export interface InputFingerprint {
  readonly path: string;
  readonly kind: "file" | "dir" | "missing" | "other";
  /** Where the path leads with symlinks resolved (a handler's confinement to its hook's directory depends on it). */
  readonly real?: string;
  /** SHA-256 of a file's bytes, or of a directory's sorted entries (names and kinds). */
  readonly sha256?: string;
}

export type FingerprintFiles = Pick<FileHost, "realpath" | "kind" | "readBytes" | "listDir">;

export async function fingerprint(fs: FingerprintFiles, digest: Pick<DigestHost, "sha256Hex">, path: string): Promise<InputFingerprint> {
  let real: string;
  try {
    real = await fs.realpath(path);
  } catch {
    return { path, kind: "missing" };
  }
  const kind = await fs.kind(real);
  if (kind === "file") {
    const bytes = await fs.readBytes(real).catch(() => undefined);
    return bytes ? { path, kind: "file", real, sha256: await digest.sha256Hex(bytes) } : { path, kind: "other", real };
  }
  if (kind === "dir") {
    const entries = await fs.listDir(path).catch(() => undefined);
    if (!entries) return { path, kind: "other", real };
    const listing = [...entries].map((e) => `${e.kind}:${e.name}`).sort();
    return { path, kind: "dir", real, sha256: await digest.sha256Hex(listing.join("\n")) };
  }
  return { path, kind: "other", real };
}

/** Whether every input still is as it was; false at the first that is not. */
export async function unchanged(fs: FingerprintFiles, digest: Pick<DigestHost, "sha256Hex">, inputs: readonly InputFingerprint[]): Promise<boolean> {
  for (const input of inputs) {
    const now = await fingerprint(fs, digest, input.path);
    if (now.kind !== input.kind || now.real !== input.real || now.sha256 !== input.sha256) return false;
  }
  return true;
}
