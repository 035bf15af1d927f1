import { HookboxError } from "../../core/errors.ts";
import { resolvePath } from "../../core/text/posix-path.ts";

/**
 * Where a package comes from. Written in a lock file (`describeSource`) so `hookbox update` can
 * go back to it: a folder, a bundle file, a git repository (cloned hardened), an https bundle URL.
 */
export type PackageSource =
  | { readonly kind: "dir"; readonly path: string }
  | { readonly kind: "bundle"; readonly path: string }
  | { readonly kind: "git"; readonly url: string; readonly ref: string | undefined }
  | { readonly kind: "url"; readonly url: string };

const BUNDLE = /\.(tar\.gz|tgz)$/;

/** A source as typed on the command line: paths are relative to `cwd`. */
export function parseSource(text: string, cwd: string): PackageSource {
  if (text.startsWith("git+")) return gitSource(text.slice(4), cwd);
  if (/^https?:\/\//.test(text)) {
    if (BUNDLE.test(new URL(text).pathname)) return { kind: "url", url: text };
    if (/\.git(#.*)?$/.test(text)) return gitSource(text, cwd);
    throw new HookboxError("usage", `${text}: give a bundle URL (…/<id>-<version>.tar.gz) or a git repository (git+${text})`);
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) && !text.startsWith("/"))
    throw new HookboxError(
      "usage",
      `${text}: a source is a folder, a .tar.gz bundle, git+<repository> (https or a local path) or an https bundle URL`,
    );
  const path = resolvePath(cwd, text);
  return BUNDLE.test(path) ? { kind: "bundle", path } : { kind: "dir", path };
}

function gitSource(spec: string, cwd: string): PackageSource {
  const hash = spec.indexOf("#");
  const location = hash < 0 ? spec : spec.slice(0, hash);
  const ref = hash < 0 ? undefined : spec.slice(hash + 1);
  if (ref !== undefined && !/^[A-Za-z0-9._/-]{1,200}$/.test(ref))
    throw new HookboxError("usage", `${spec}: the ref after # must be a branch or tag name`);
  if (/^https:\/\//.test(location) || location.startsWith("file:///")) return { kind: "git", url: location, ref };
  if (/^[a-z][a-z0-9+.-]*:/i.test(location))
    throw new HookboxError("usage", `${spec}: only https:// and local repositories are cloned (the same protocols a hook's git may use)`);
  return { kind: "git", url: resolvePath(cwd, location), ref };
}

/** The source as a lock file records it. */
export function describeSource(source: PackageSource): string {
  switch (source.kind) {
    case "dir":
      return `dir:${source.path}`;
    case "bundle":
      return `bundle:${source.path}`;
    case "git":
      return `git:${source.url}${source.ref ? `#${source.ref}` : ""}`;
    case "url":
      return `url:${source.url}`;
  }
}

/** A lock file's source back as one `update` can fetch from; undefined for sources it does not manage (imports, fleet sources). */
export function sourceFromLock(text: string): PackageSource | undefined {
  const colon = text.indexOf(":");
  const kind = text.slice(0, colon);
  const rest = text.slice(colon + 1);
  if (kind === "dir" || kind === "bundle") return { kind, path: rest };
  if (kind === "url") return { kind, url: rest };
  if (kind === "git") {
    const hash = rest.indexOf("#");
    return { kind, url: hash < 0 ? rest : rest.slice(0, hash), ref: hash < 0 ? undefined : rest.slice(hash + 1) };
  }
  return undefined;
}
