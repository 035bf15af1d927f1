import { parse } from "yaml";
import { HookboxError } from "../../core/errors.ts";
import { acquire, packageTree, type PackageDeps } from "../../hooks/packages/acquire.ts";
import { parseSource } from "../../hooks/packages/source.ts";
import { writeTree, type PackageTree } from "../../hooks/packages/tree.ts";
import { LOCK_FILE, parseLock, serializeLock } from "../../hooks/packages/lock.ts";
import { HOOK_ID } from "../../hooks/config/schema.ts";
import type { HookSource } from "../../hooks/registry/sources.ts";
import type { FileHost } from "../../platform/index.ts";

/**
 * Hooks a replay runs that are not installed yet (`--with`, and a side of `--compare`): a
 * package's folder, a bundle, or a git repository, staged in a private temporary directory and
 * loaded as a package would be (community limits; its grants as the operator file allows them).
 * One with the id of an installed hook stands in for it: the installed copy is hidden from the
 * load (its directory or file of that name in the user's and the projects' hook directories).
 * Nothing is verified or installed: the code only runs in the replay's sandbox, with no effect.
 */
export interface StagedCandidates {
  readonly source: HookSource;
  readonly ids: readonly string[];
  /** The runtime's files, with every installed copy of a staged id hidden from hook directories. */
  readonly fs: FileHost;
  remove(): Promise<void>;
}

export async function stageCandidates(specs: readonly string[], cwd: string, deps: PackageDeps, userHooksDir: string): Promise<StagedCandidates> {
  const dir = await deps.fs.makeTempDir("hookbox-replay-");
  const ids: string[] = [];
  try {
    for (const spec of specs) {
      for (const tree of await treesOf(spec, cwd, deps)) {
        const id = idOf(tree, spec);
        if (ids.includes(id)) throw new HookboxError("usage", `--with ${spec}: a hook with the id ${id} is given twice`);
        ids.push(id);
        await writeTree(deps.fs, `${dir}/${id}`, tree);
      }
    }
  } catch (error) {
    await deps.fs.removeTree(dir);
    throw error;
  }
  return {
    source: { dir, origin: "package", required: true },
    ids,
    fs: hiding(deps.fs, ids, (path) => path !== dir && (path === userHooksDir || path.endsWith("/.hookbox/hooks"))),
    remove: () => deps.fs.removeTree(dir),
  };
}

/** A package's tree, or each hook's of a directory of hook folders. */
async function treesOf(spec: string, cwd: string, deps: PackageDeps): Promise<PackageTree[]> {
  const source = parseSource(spec, cwd);
  if (source.kind === "dir" && (await deps.fs.kind(`${source.path}/hook.yaml`)) !== "file") {
    const entries = await deps.fs.listDir(source.path).catch(() => {
      throw new HookboxError("file_unreadable", `--with ${spec}: no such folder`);
    });
    const inner = [];
    for (const entry of entries.filter((e) => e.kind === "dir").sort((a, b) => a.name.localeCompare(b.name)))
      if ((await deps.fs.kind(`${source.path}/${entry.name}/hook.yaml`)) === "file") inner.push(`${source.path}/${entry.name}`);
    if (inner.length === 0) throw new HookboxError("file_unreadable", `--with ${spec}: no hook.yaml there or in its folders`);
    return Promise.all(inner.map(async (path) => packageTree(await acquire({ kind: "dir", path }, deps), deps.packageIO)));
  }
  return [await packageTree(await acquire(source, deps), deps.packageIO)];
}

function idOf(tree: PackageTree, spec: string): string {
  const yaml = tree.get("hook.yaml");
  if (!yaml) throw new HookboxError("config_invalid", `--with ${spec}: no hook.yaml at its top`);
  let id: unknown;
  try {
    id = (parse(new TextDecoder().decode(yaml)) as { id?: unknown } | null)?.id;
  } catch (error) {
    throw new HookboxError("config_invalid", `--with ${spec}: hook.yaml is not YAML (${(error as Error).message})`);
  }
  if (typeof id !== "string" || !HOOK_ID.test(id)) throw new HookboxError("config_invalid", `--with ${spec}: hook.yaml has no valid id`);
  return id;
}

/**
 * The files as they are, except that hook directories no longer list a hook of these ids, nor
 * their lock files the package of that id (it would be a package whose files are missing).
 */
function hiding(fs: FileHost, ids: readonly string[], isHookDir: (path: string) => boolean): FileHost {
  const names = new Set(ids.flatMap((id) => [id, `${id}.yaml`, `${id}.yml`]));
  return new Proxy(fs, {
    get(target, property, receiver) {
      if (property === "listDir")
        return async (path: string) => {
          const entries = await target.listDir(path);
          return isHookDir(path.replace(/\/+$/, "")) ? entries.filter((entry) => !names.has(entry.name)) : entries;
        };
      if (property === "readText")
        return async (path: string) => {
          const text = await target.readText(path);
          if (!path.endsWith(`/${LOCK_FILE}`) || !isHookDir(path.slice(0, -LOCK_FILE.length - 1))) return text;
          const lock = parseLock(text);
          if (typeof lock === "string") return text;
          return serializeLock({ ...lock, packages: Object.fromEntries(Object.entries(lock.packages).filter(([id]) => !names.has(id))) });
        };
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
