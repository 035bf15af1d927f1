import type { HookFileReader } from "../../src/hooks/registry/sources.ts";
import type { DirEntry } from "../../src/platform/types.ts";

/** A FileHost over an in-memory tree: hook directories for tests without touching the disk. */
export function memoryFs(files: Record<string, string>): HookFileReader {
  const normalized = new Map(Object.entries(files).map(([path, text]) => [path.replace(/\/+/g, "/"), text]));
  return {
    readText: async (path) => {
      const text = normalized.get(path);
      if (text === undefined) throw new Error(`ENOENT: ${path}`);
      return text;
    },
    listDir: async (path) => {
      const prefix = `${path.replace(/\/+$/, "")}/`;
      const entries = new Map<string, DirEntry>();
      for (const file of normalized.keys()) {
        if (!file.startsWith(prefix)) continue;
        const rest = file.slice(prefix.length);
        const [name, ...more] = rest.split("/");
        if (name) entries.set(name, { name, kind: more.length > 0 ? "dir" : "file" });
      }
      if (entries.size === 0) throw new Error(`ENOENT: ${path}`);
      return [...entries.values()];
    },
  };
}
