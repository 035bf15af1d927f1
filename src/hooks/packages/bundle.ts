import type { PackageIO } from "../../platform/index.ts";
import { readTar, writeTar } from "./tar.ts";
import { sortedTree, TREE_LIMITS, type PackageTree } from "./tree.ts";

/**
 * A bundle: a package's files as a gzipped ustar archive, paths relative to the package root
 * (hook.yaml at the top). Packing is reproducible — same files, same bytes — so a signature
 * can be checked against a bundle rebuilt from a fresh clone.
 */

/** A bundle, compressed, at most this many bytes (fetched or read). */
export const MAX_BUNDLE_BYTES = 8 * 1024 * 1024;

export async function packBundle(tree: PackageTree, io: Pick<PackageIO, "gzip">): Promise<Uint8Array> {
  return io.gzip(writeTar([...tree].map(([path, data]) => ({ path, data }))));
}

export type Unpacked = { readonly ok: true; readonly tree: PackageTree } | { readonly ok: false; readonly error: string };

/** A bundle's files, or why it is refused (hostile bundles included: see tar.ts). */
export async function unpackBundle(bytes: Uint8Array, io: Pick<PackageIO, "gunzip">): Promise<Unpacked> {
  if (bytes.length > MAX_BUNDLE_BYTES) return { ok: false, error: `${bytes.length} bytes, more than the ${MAX_BUNDLE_BYTES} a bundle may have` };
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return { ok: false, error: "not a gzip file (a bundle is a .tar.gz made by hookbox pack)" };
  let tar: Uint8Array;
  try {
    tar = await io.gunzip(bytes, TREE_LIMITS.maxTotalBytes + (TREE_LIMITS.maxEntries + 2) * 1024);
  } catch (error) {
    return {
      ok: false,
      error: error instanceof RangeError ? `too large once decompressed (${error.message})` : `not a valid gzip file (${(error as Error).message})`,
    };
  }
  const read = readTar(tar, TREE_LIMITS);
  if (!read.ok) return read;
  if (read.files.length === 0) return { ok: false, error: "the bundle holds no files" };
  return { ok: true, tree: sortedTree(read.files.map((file) => [file.path, file.data] as const)) };
}

/** `<id>-<version>.tar.gz`: what pack writes and what a mirror directory lists. */
export function bundleFileName(id: string, version: string): string {
  return `${id}-${version}.tar.gz`;
}

/** The id and version a bundle's file name says (a version starts with a digit), or undefined. */
export function parseBundleFileName(name: string): { id: string; version: string } | undefined {
  const match = /^([a-z0-9][a-z0-9-]*?)-(\d[0-9A-Za-z.+-]*)\.tar\.gz$/.exec(name);
  return match ? { id: match[1] as string, version: match[2] as string } : undefined;
}

/**
 * Why a bundle is not what its file name says (`<id>-<version>.tar.gz`), or undefined when it is
 * (or its name follows no such pattern). `update` and the fleet pick the newest bundle by its
 * name, and a signature covers the bytes, not the name: a correctly signed older release renamed
 * as a newer one must not pass for it.
 */
export function bundleNameMismatch(fileName: string, id: string, version: string | null): string | undefined {
  const named = parseBundleFileName(fileName);
  if (!named || (named.id === id && named.version === version)) return undefined;
  return `it holds ${id} ${version ?? "(no version)"}, not what its name says (${named.id} ${named.version})`;
}
