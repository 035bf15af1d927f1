import type { Diagnostic } from "../config/diagnostics.ts";
import type { OperatorFile } from "../config/schema.ts";
import { LOCK_FILE, parseLock, type LockEntry, type LockFile } from "../packages/lock.ts";
import { readTree, treeChanges, treeDigest } from "../packages/tree.ts";
import type { FileHost } from "../../platform/index.ts";
import { brokenHook, type BrokenHook } from "./broken.ts";
import type { HookFileReader, HookFileRef, HookSource } from "./sources.ts";

/**
 * Installed packages at load: a hook directory described by the `hookbox.lock` beside it is a
 * package. It runs only while its files are exactly the ones installed; otherwise it is a broken
 * entry that says what changed and fails by the on_error it was installed with (its YAML may be
 * the edited file). A lock that cannot be read makes every hook directory beside it broken.
 */

export interface SourceLock {
  readonly path: string;
  /** Undefined: no lock file here. A string: why it cannot be read. */
  readonly lock: LockFile | string | undefined;
}

export async function readSourceLock(fs: HookFileReader, source: HookSource): Promise<SourceLock> {
  const path = `${source.dir.replace(/\/+$/, "")}/${LOCK_FILE}`;
  let text: string;
  try {
    text = await fs.readText(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT" || /ENOENT/.test((error as Error).message)) return { path, lock: undefined };
    return { path, lock: `cannot be read: ${(error as Error).message}` };
  }
  return { path, lock: parseLock(text) };
}

/** The package a hook file belongs to: `<dir>/<name>/hook.yaml` with `<name>` in the lock. */
export function packageOf(
  lock: SourceLock,
  source: HookSource,
  file: string,
): { readonly name: string; readonly entry: LockEntry | undefined } | undefined {
  if (lock.lock === undefined) return undefined;
  const prefix = `${source.dir.replace(/\/+$/, "")}/`;
  const match = file.startsWith(prefix) ? /^([^/]+)\/hook\.ya?ml$/.exec(file.slice(prefix.length)) : null;
  if (!match) return undefined;
  const name = match[1] as string;
  if (typeof lock.lock === "string") return { name, entry: undefined };
  return Object.hasOwn(lock.lock.packages, name) ? { name, entry: lock.lock.packages[name] } : undefined;
}

/** A file host's tree reading, or the subset an in-memory test host offers. */
function treeFs(fs: HookFileReader): Pick<FileHost, "listDir" | "kind" | "readBytes"> {
  return {
    listDir: (path) => fs.listDir(path),
    kind: fs.kind
      ? (path) => (fs.kind as FileHost["kind"])(path)
      : async (path) =>
          (await fs.listDir(path).then(
            () => true,
            () => false,
          ))
            ? "dir"
            : "file",
    readBytes: fs.readBytes
      ? (path) => (fs.readBytes as FileHost["readBytes"])(path)
      : async (path) => new TextEncoder().encode(await fs.readText(path)),
  };
}

export interface PackageCheck {
  /** Undefined: the package is intact and may load. */
  readonly broken?: BrokenHook;
  /** Files the check read (what the snapshot's freshness depends on). */
  readonly read: readonly string[];
}

/** Check an installed package against its lock entry before anything of it is loaded. */
export async function checkPackage(
  fs: HookFileReader,
  ref: HookFileRef,
  lock: SourceLock,
  name: string,
  entry: LockEntry | undefined,
  operator: OperatorFile,
): Promise<PackageCheck> {
  const dir = ref.file.slice(0, ref.file.lastIndexOf("/"));
  const broken = (message: string, trustYaml: boolean, text?: string): PackageCheck => {
    const problem: Diagnostic = { file: ref.file, line: 1, column: 1, field: "", message };
    // An edited hook.yaml cannot say where its failure applies: everywhere, by its installed on_error.
    const entryBroken = brokenHook(ref.file, ref.origin, trustYaml ? text : undefined, [problem], operator, name);
    const override = Object.hasOwn(operator.hooks, name) ? operator.hooks[name]?.on_error : undefined;
    // Without an entry (the lock cannot be read) nothing says which were guards: each fails closed.
    return { broken: trustYaml ? entryBroken : { ...entryBroken, onError: override ?? entry?.on_error ?? "deny" }, read: [lock.path] };
  };
  if (typeof lock.lock === "string")
    return broken(`${lock.path} ${lock.lock}: the packages beside it do not run until it is fixed or reinstalled`, false);
  if (!entry) return { read: [] };
  let digest;
  try {
    digest = await treeDigest(await readTree(treeFs(fs), dir));
  } catch (error) {
    return broken(
      `the installed package ${name} cannot be checked against ${lock.path} (${(error as Error).message}); it does not run until reinstalled: hookbox update ${name}, or hookbox remove ${name}`,
      false,
    );
  }
  // Every file and every directory holding one: a file added anywhere in the package is a change too.
  const paths = Object.keys(digest.files);
  const folders = new Set(
    paths.flatMap((path) =>
      path
        .split("/")
        .slice(0, -1)
        .map((_, i, parts) => `${dir}/${parts.slice(0, i + 1).join("/")}`),
    ),
  );
  const read = [lock.path, dir, ...folders, ...paths.map((path) => `${dir}/${path}`)];
  const changes = treeChanges(entry.files, digest.files);
  if (changes === undefined) return { read };
  const yamlName = ref.file.slice(dir.length + 1);
  const yamlIntact = entry.files[yamlName] !== undefined && entry.files[yamlName] === digest.files[yamlName];
  const text = yamlIntact ? await fs.readText(ref.file).catch(() => undefined) : undefined;
  return {
    ...broken(
      `the installed package ${name} no longer matches ${lock.path} (${changes} since it was installed from ${entry.source}); it does not run until you reinstall it (hookbox update ${name}) or remove it (hookbox remove ${name})`,
      yamlIntact,
      text,
    ),
    read,
  };
}

/**
 * A source's hook files with its packages marked: origin "package" (their own tier, between the
 * operator's hooks and the project's; a project's packages stay the project's, an import stays
 * the user's), a check to run
 * before each loads, and a broken entry for each package in the lock whose folder is gone.
 */
export async function packagesOf(
  fs: HookFileReader,
  source: HookSource,
  files: readonly HookFileRef[],
  operator: OperatorFile,
): Promise<{ refs: HookFileRef[]; checks: Map<HookFileRef, () => Promise<PackageCheck>>; missing: BrokenHook[]; lock: string }> {
  const lock = await readSourceLock(fs, source);
  const refs: HookFileRef[] = [];
  const checks = new Map<HookFileRef, () => Promise<PackageCheck>>();
  for (const file of files) {
    const pkg = packageOf(lock, source, file.file);
    // Imported hooks are the user's own commands: lock-checked, but ordered (and limited) as the user's.
    const community = pkg !== undefined && source.origin !== "project" && !pkg.entry?.source.startsWith("import:");
    const ref = community ? { ...file, origin: "package" as const } : file;
    if (pkg) checks.set(ref, () => checkPackage(fs, ref, lock, pkg.name, pkg.entry, operator));
    refs.push(ref);
  }
  const missing: BrokenHook[] = [];
  if (typeof lock.lock === "object") {
    const present = new Set(files.map((file) => packageOf(lock, source, file.file)?.name));
    for (const [name, entry] of Object.entries(lock.lock.packages)) {
      if (present.has(name)) continue;
      const file = `${source.dir.replace(/\/+$/, "")}/${name}/hook.yaml`;
      const problem: Diagnostic = {
        file,
        line: 1,
        column: 1,
        field: "",
        message: `the package ${name} in ${lock.path} is not installed any more (its directory is gone); reinstall it (hookbox update ${name}) or forget it (hookbox remove ${name})`,
      };
      const broken = brokenHook(file, source.origin === "project" ? "project" : "package", undefined, [problem], operator, name);
      missing.push({ ...broken, onError: (Object.hasOwn(operator.hooks, name) ? operator.hooks[name]?.on_error : undefined) ?? entry.on_error });
    }
  }
  return { refs, checks, missing, lock: lock.path };
}
