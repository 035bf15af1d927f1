// src/hooks/packages/import owns `hookbox import`: other tools' hooks as a package of Hookbox's; it must not import src/decide or above.
import { parse as parseYamlText } from "yaml";
import { HookboxError } from "../../../core/errors.ts";
import { parseJsonDocument } from "../../../agents/shared/install/json-document.ts";
import type { FileHost } from "../../../platform/index.ts";
import { dirname } from "../../../core/text/posix-path.ts";
import { importClaudeShaped } from "./claude-shaped.ts";
import { importCursor } from "./cursor.ts";
import { importTemplate } from "./template.ts";
import type { ImportDialect, ImportPlan } from "./types.ts";

export { importedPackage } from "./generate.ts";
export type { ImportDialect, ImportedHook, ImportPlan } from "./types.ts";

export const IMPORT_DIALECTS: readonly ImportDialect[] = ["claude", "codex", "gemini", "cursor", "template"];

const YAML_FILE = /\.ya?ml$/;
const GEMINI_EVENTS = /^(BeforeTool|AfterTool|BeforeAgent|AfterAgent|BeforeModel|AfterModel|BeforeToolSelection|PreCompress)$/;

/** The hook configuration at `path` (a settings file, a hooks.json, a template YAML file or directory), read and translated. */
export async function readImport(fs: Pick<FileHost, "kind" | "listDir" | "readText">, path: string, dialect?: ImportDialect): Promise<ImportPlan> {
  const kind = await fs.kind(path);
  if (kind === "missing") throw new HookboxError("file_unreadable", `${path} not found`);
  if (kind === "dir" || dialect === "template" || YAML_FILE.test(path)) {
    const files =
      kind === "dir"
        ? (await fs.listDir(path))
            .filter((e) => e.kind === "file" && YAML_FILE.test(e.name))
            .map((e) => `${path}/${e.name}`)
            .sort()
        : [path];
    const parsed = [];
    for (const file of files) {
      try {
        parsed.push({ file, value: parseYamlText(await fs.readText(file), { maxAliasCount: 100 }) as unknown });
      } catch (error) {
        throw new HookboxError("config_invalid", `${file} is not valid YAML: ${(error as Error).message}`);
      }
    }
    return importTemplate(parsed);
  }
  const root = parseJsonDocument(await fs.readText(path), path).root;
  const chosen = dialect ?? guessDialect(path, root);
  if (chosen === "cursor") return importCursor(root, dirname(path));
  // A plugin's (or a Gemini extension's) hooks.json names its own root in a variable.
  const pluginRoot = /\/hooks\/hooks\.json$/.test(path) ? dirname(dirname(path)) : undefined;
  return importClaudeShaped(root, chosen === "template" ? "claude" : chosen, pluginRoot ? { pluginRoot } : {});
}

function guessDialect(path: string, root: Record<string, unknown>): ImportDialect {
  const hooks = root.hooks !== null && typeof root.hooks === "object" ? (root.hooks as Record<string, unknown>) : {};
  const flat = Object.values(hooks).some(
    (entries) => Array.isArray(entries) && entries.some((entry) => entry && typeof entry === "object" && "command" in entry && !("hooks" in entry)),
  );
  if (path.includes("/.cursor/") || (typeof root.version === "number" && flat)) return "cursor";
  if (path.includes("/.gemini/") || Object.keys(hooks).some((name) => GEMINI_EVENTS.test(name))) return "gemini";
  if (path.includes("/.codex/")) return "codex";
  return "claude";
}
