import type { HookOrigin } from "../../core/origin.ts";
import type { FileHost } from "../../platform/index.ts";

/** The file access loading hooks needs (tests give an in-memory one, which has no symlinks and may omit realpath). */
export type HookFileReader = Pick<FileHost, "readText" | "listDir"> & Partial<Pick<FileHost, "realpath" | "stamp" | "kind" | "readBytes">>;

/** A directory hooks are loaded from. */
export interface HookSource {
  readonly dir: string;
  readonly origin: HookOrigin;
  /** Given explicitly (--hooks DIR): a missing directory is an error, not an empty one. */
  readonly required: boolean;
}

/** A standard hook embedded in the binary: its YAML and the files next to it (handler.ts …). */
export interface EmbeddedHook {
  readonly id: string;
  readonly yaml: string;
  readonly files: Readonly<Record<string, string>>;
}

/** One hook file to load, with how to read the files next to it. */
export interface HookFileRef {
  readonly file: string;
  readonly origin: HookOrigin;
  readonly read: (path: string) => Promise<string>;
  /** Symlinks resolved, to keep a handler inside its hook's directory; absent where there are none (embedded hooks). */
  readonly realpath?: (path: string) => Promise<string>;
}

const YAML_FILE = /\.ya?ml$/;

/**
 * Hook files in a directory: `*.yaml` / `*.yml` at its top (except the operator's hookbox.yaml)
 * and `<name>/hook.yaml` one level down — the layout of handlers/<id>/. Sorted, so loading is
 * deterministic.
 */
export async function hookFilesIn(fs: HookFileReader, source: HookSource): Promise<{ files: HookFileRef[]; missing: boolean; dirs: string[] }> {
  const entries = await fs.listDir(source.dir).catch(() => undefined);
  if (!entries) return { files: [], missing: true, dirs: [] };
  const files: string[] = [];
  const dirs: string[] = [];
  for (const entry of [...entries].sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith(".")) continue;
    const path = `${source.dir.replace(/\/+$/, "")}/${entry.name}`;
    if (entry.kind === "file" && YAML_FILE.test(entry.name) && !/^hookbox\.ya?ml$/.test(entry.name)) files.push(path);
    if (entry.kind === "dir") {
      dirs.push(path);
      const inner = await fs.listDir(path).catch(() => []);
      const hookFile = inner.find((e) => e.kind === "file" && /^hook\.ya?ml$/.test(e.name));
      if (hookFile) files.push(`${path}/${hookFile.name}`);
    }
  }
  const realpath = fs.realpath?.bind(fs);
  return {
    files: files.map((file) => ({ file, origin: source.origin, read: (p: string) => fs.readText(p), ...(realpath && { realpath }) })),
    missing: false,
    dirs,
  };
}

/** Embedded hooks are read from memory, under a "builtin:<id>/" pseudo-directory. */
export function embeddedFile(hook: EmbeddedHook): HookFileRef {
  const dir = `builtin:${hook.id}`;
  return {
    file: `${dir}/hook.yaml`,
    origin: "builtin",
    read: async (path) => {
      if (path === `${dir}/hook.yaml`) return hook.yaml;
      const name = path.startsWith(`${dir}/`) ? path.slice(dir.length + 1) : undefined;
      const content = name !== undefined ? hook.files[name] : undefined;
      if (content === undefined) throw new Error(`no embedded file ${path}`);
      return content;
    },
  };
}
