import { HookboxError, errorMessage } from "../../core/errors.ts";
import type { CapabilityIO, FileHost, PackageIO } from "../../platform/index.ts";
import { MAX_BUNDLE_BYTES, unpackBundle } from "./bundle.ts";
import { fetchUrl } from "./fetch.ts";
import { cloneRepository } from "./git.ts";
import { describeSource, type PackageSource } from "./source.ts";
import { readTree, type PackageTree } from "./tree.ts";

/** What fetching, cloning and unpacking need from the runtime. */
export interface PackageDeps {
  readonly fs: FileHost;
  readonly io: CapabilityIO;
  readonly packageIO: PackageIO;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
}

/**
 * A package fetched but not yet trusted: a folder's or repository's files, or a bundle's bytes and
 * the signature beside it — a bundle is opened only once its signature is checked (signature.ts).
 */
export interface Acquired {
  /** The files of a folder or repository; undefined for a bundle until it is opened. */
  readonly tree?: PackageTree;
  /** The source as the lock file records it. */
  readonly source: string;
  /** A bundle's bytes and the `.minisig` found beside it (undefined: none). */
  readonly bundle?: { readonly bytes: Uint8Array; readonly signature: string | undefined; readonly where: string };
  /** What else is worth saying (the commit a repository was at). */
  readonly note?: string;
}

const MAX_SIGNATURE_BYTES = 4096;

export async function acquire(source: PackageSource, deps: PackageDeps): Promise<Acquired> {
  const described = describeSource(source);
  switch (source.kind) {
    case "dir": {
      if ((await deps.fs.kind(source.path)) !== "dir")
        throw new HookboxError("file_unreadable", `${source.path} is not a folder (a package folder holds hook.yaml)`);
      return { tree: await readTree(deps.fs, source.path), source: described };
    }
    case "bundle": {
      const size = await deps.fs.size(source.path);
      if (size === undefined) throw new HookboxError("file_unreadable", `${source.path} not found`);
      if (size > MAX_BUNDLE_BYTES)
        throw new HookboxError("request_too_large", `${source.path}: ${size} bytes, more than the ${MAX_BUNDLE_BYTES} a bundle may have`);
      const bytes = await deps.fs.readBytes(source.path);
      const signaturePath = `${source.path}.minisig`;
      const signature = (await deps.fs.size(signaturePath)) !== undefined ? await readSignature(deps.fs, signaturePath) : undefined;
      return { source: described, bundle: { bytes, signature, where: source.path } };
    }
    case "url": {
      const bundle = await fetchUrl(deps.io, source.url, { maxBytes: MAX_BUNDLE_BYTES });
      if (bundle.status !== 200) throw new HookboxError("not_found", `${source.url}: not found (HTTP 404)`);
      const signature = await fetchUrl(deps.io, `${source.url}.minisig`, { maxBytes: MAX_SIGNATURE_BYTES });
      const signatureText = signature.status === 200 ? new TextDecoder().decode(signature.body) : undefined;
      return { source: described, bundle: { bytes: bundle.body, signature: signatureText, where: source.url } };
    }
    case "git": {
      const scratch = await deps.fs.makeTempDir("hookbox-clone-");
      try {
        const { commit } = await cloneRepository(deps.io, deps.env, deps.home, source.url, source.ref, `${scratch}/repo`);
        return { tree: await readTree(deps.fs, `${scratch}/repo`), source: described, note: `commit ${commit}` };
      } finally {
        await deps.fs.removeTree(scratch);
      }
    }
  }
}

async function readSignature(fs: FileHost, path: string): Promise<string> {
  const size = (await fs.size(path)) ?? 0;
  if (size > MAX_SIGNATURE_BYTES) throw new HookboxError("signature_invalid", `${path}: ${size} bytes is not a minisign signature`);
  return fs.readText(path);
}

/** A package's files: a folder's as read, a bundle's unpacked (hostile bundles refused: tar.ts). */
export async function packageTree(acquired: Acquired, io: Pick<PackageIO, "gunzip">): Promise<PackageTree> {
  if (acquired.tree) return acquired.tree;
  const bundle = acquired.bundle as NonNullable<Acquired["bundle"]>;
  const result = await unpackBundle(bundle.bytes, io).catch((error: unknown) => ({ ok: false as const, error: errorMessage(error) }));
  if (!result.ok) throw new HookboxError("config_invalid", `${bundle.where} is refused: ${result.error}`);
  return result.tree;
}
