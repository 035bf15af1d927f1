import { grantKeys } from "../../capabilities/grants/keys.ts";
import type { CapabilityHost } from "../../capabilities/types.ts";
import { formatDiagnostic, parseYaml, type Diagnostic } from "../config/diagnostics.ts";
import { hookFileSchema, HOOK_ID, type OperatorFile } from "../config/schema.ts";
import { HookboxError } from "../../core/errors.ts";
import { loadHooks, type LoadedHook } from "../registry/load.ts";
import type { HookFileReader } from "../registry/sources.ts";
import type { DirEntry } from "../../platform/index.ts";
import type { PackageTree } from "./tree.ts";

/** A package as it would run: loaded by the registry's own loader, with its grants reviewed. */
export interface InspectedPackage {
  readonly id: string;
  readonly version: string | null;
  readonly onError: "continue" | "deny";
  /** Every grant it declares, as keys: what consent is given to and a lock file records. */
  readonly grants: readonly string[];
  readonly hook: LoadedHook;
}

const decoder = new TextDecoder();

/** The tree as a read-only file system under `root`, for the loader. */
function treeReader(root: string, tree: PackageTree): HookFileReader {
  return {
    readText: async (path) => {
      const data = path.startsWith(`${root}/`) ? tree.get(path.slice(root.length + 1)) : undefined;
      if (data === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: "ENOENT" });
      return decoder.decode(data);
    },
    listDir: async (path) => {
      const prefix = path === root ? "" : `${path.slice(root.length + 1)}/`;
      if (path !== root && !path.startsWith(`${root}/`)) throw Object.assign(new Error(`ENOENT: ${path}`), { code: "ENOENT" });
      const entries = new Map<string, DirEntry>();
      for (const file of tree.keys()) {
        if (!file.startsWith(prefix)) continue;
        const [name, ...more] = file.slice(prefix.length).split("/");
        if (name) entries.set(name, { name, kind: more.length > 0 ? "dir" : "file" });
      }
      if (entries.size === 0 && path !== root) throw Object.assign(new Error(`ENOENT: ${path}`), { code: "ENOENT" });
      return [...entries.values()];
    },
  };
}

/**
 * Load a package's hook exactly as the daemon would (schema, handler compiled, matcher, grants
 * prepared against this operator file), without installing anything. `where` names it in messages.
 */
export async function inspectPackage(
  tree: PackageTree,
  where: string,
  operator: OperatorFile,
  capabilities: CapabilityHost,
): Promise<InspectedPackage> {
  const yaml = tree.get("hook.yaml") ?? tree.get("hook.yml");
  if (!yaml)
    throw new HookboxError(
      "config_invalid",
      `${where} is not a hook package: there is no hook.yaml at its top (found: ${[...tree.keys()].slice(0, 5).join(", ") || "nothing"})`,
    );
  const text = decoder.decode(yaml);
  const id = /^id:\s*["']?([^\s"'#]+)["']?\s*(#.*)?$/m.exec(text)?.[1];
  if (!id || !HOOK_ID.test(id)) throw new HookboxError("config_invalid", `${where}/hook.yaml: no valid id (1–64 characters of a-z, 0-9, - and _)`);
  // A fixed root: `where` may be a URL, which path resolution would mangle. Messages name files relative to the package.
  const root = "/hookbox-package";
  const shown = (diagnostics: readonly Diagnostic[]): string =>
    diagnostics.map((d) => `  ${formatDiagnostic(d).replaceAll(`${root}/${id}/`, "")}`).join("\n");
  const parsed = parseYaml(text, `${root}/${id}/hook.yaml`, hookFileSchema);
  if (!parsed.ok) throw new HookboxError("config_invalid", `${where} does not load:\n${shown(parsed.diagnostics)}`, parsed.diagnostics);
  const subtree = new Map([...tree].map(([path, data]) => [`${id}/${path}`, data]));
  const result = await loadHooks(
    {
      sources: [{ dir: root, origin: "user", required: true }],
      operator: { ...operator, builtin: [] },
      operatorFile: undefined,
      embedded: new Map(),
    },
    { fs: treeReader(root, subtree), capabilities },
  );
  const hook = result.hooks.find((candidate) => candidate.definition.id === id);
  const errors = result.diagnostics.filter((d) => d.severity !== "warning");
  if (!hook || errors.length > 0)
    throw new HookboxError(
      "config_invalid",
      `${where} does not load:\n${shown(errors.length ? errors : result.broken.flatMap((b) => b.problems))}`,
      errors,
    );
  return { id, version: parsed.value.version ?? null, onError: parsed.value.on_error, grants: grantKeys(hook.definition.permissions), hook };
}
