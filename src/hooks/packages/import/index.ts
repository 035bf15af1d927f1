// src/hooks/packages/import owns `hookbox import`: other tools' hooks as a package of Hookbox's; it must not import src/decide or above.
import { parse as parseYamlText } from "yaml";
import { HookboxError } from "../../../core/errors.ts";
import { parseJsonDocument } from "../../../agents/shared/install/json-document.ts";
import type { FileHost } from "../../../platform/index.ts";
import { dirname } from "../../../core/text/posix-path.ts";
import { guessImportAgent, IMPORT_AGENTS, readAgentImport, type ImportDialect, type ImportPlan } from "../../../agents/importers.ts";
import { compilePermissionRule } from "../../registry/permission-rule.ts";
import { importTemplate } from "./template.ts";

export { importedPackage } from "./generate.ts";
export type { ImportDialect, ImportedHook, ImportPlan } from "../../../agents/importers.ts";

/** `hookbox import --agent`: the agents whose hook settings it reads (the agent table's importers), and the hooks template. */
export const IMPORT_DIALECTS: readonly ImportDialect[] = [...IMPORT_AGENTS, "template"];

const YAML_FILE = /\.ya?ml$/;

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
  const agent = dialect ?? guessImportAgent(path, root);
  // A plugin's (or an extension's) hooks.json names its own root in a variable.
  const pluginRoot = /\/hooks\/hooks\.json$/.test(path) ? dirname(dirname(path)) : undefined;
  return checkedRules(readAgentImport(agent, root, path, pluginRoot));
}

/**
 * An imported `if` rule Hookbox cannot read is dropped with a warning naming it: kept, the hook
 * would not load at all; the warning says the hook now runs on every call its matcher selects.
 */
export function checkedRules(plan: ImportPlan): ImportPlan {
  const warnings = [...plan.warnings];
  const hooks = plan.hooks.map((hook) => {
    if (hook.match.if === undefined) return hook;
    const rule = compilePermissionRule(hook.match.if);
    if (rule.ok) return hook;
    warnings.push(
      `${hook.where}: if ${JSON.stringify(hook.match.if)} is not a rule Hookbox reads (${rule.message}): the hook runs on every call its matcher selects`,
    );
    const { if: _dropped, ...match } = hook.match;
    return { ...hook, match };
  });
  return { ...plan, hooks, warnings };
}
