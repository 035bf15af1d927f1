import type { CapabilityHost } from "../capabilities/types.ts";
import { formatDiagnostic, parseYaml, type Diagnostic } from "../config/diagnostics.ts";
import type { Locations } from "../config/locations.ts";
import { operatorFileSchema, type OperatorFile } from "../config/schema.ts";
import { HookboxError } from "../errors.ts";
import type { RuntimeHost } from "../runtime/index.ts";
import { dirname, resolvePath } from "../text/posix-path.ts";
import type { LoadInputs } from "./load.ts";
import { Registry, type ReloadReport } from "./registry.ts";
import type { EmbeddedHook } from "./sources.ts";

export type OperatorRead = { readonly ok: true; readonly operator: OperatorFile; readonly file: string | undefined } | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Read and validate the operator file; a missing default one means all defaults. */
export async function readOperatorFile(host: RuntimeHost, locations: Locations): Promise<OperatorRead> {
  const { path, explicit } = locations.operatorFile;
  if (!(await host.fs.exists(path))) {
    if (explicit) return { ok: false, diagnostics: [{ file: path, line: 1, column: 1, field: "", message: "operator file not found" }] };
    return { ok: true, operator: operatorFileSchema.parse({}), file: undefined };
  }
  const parsed = parseYaml(await host.fs.readText(path), path, operatorFileSchema);
  return parsed.ok ? { ok: true, operator: parsed.value, file: path } : { ok: false, diagnostics: parsed.diagnostics };
}

/**
 * Open the registry. An invalid operator file stops everything: falling back to defaults could
 * grant hooks more than the operator's ceilings allow. On a later reload, an operator file that
 * became invalid keeps the last good one.
 */
export async function openRegistry(
  host: RuntimeHost,
  locations: Locations,
  capabilities: CapabilityHost,
  embedded: ReadonlyMap<string, EmbeddedHook>,
  onReload?: (report: ReloadReport) => void,
): Promise<Registry> {
  let lastGood: { operator: OperatorFile; file: string | undefined } | undefined;
  const readInputs = async (): Promise<LoadInputs> => {
    const read = await readOperatorFile(host, locations);
    let diagnostics: readonly Diagnostic[] = [];
    if (read.ok) lastGood = { operator: read.operator, file: read.file };
    else if (lastGood) diagnostics = read.diagnostics.map((d) => ({ ...d, message: `${d.message} (the last valid operator file stays in force)` }));
    else throw new HookboxError("config_invalid", `invalid operator file:\n${read.diagnostics.map(formatDiagnostic).join("\n")}`, read.diagnostics);
    const { file } = lastGood;
    const requested = locations.builtin.includes("all") ? [...embedded.keys()] : locations.builtin;
    const operator = requested.length > 0 ? { ...lastGood.operator, builtin: [...new Set([...lastGood.operator.builtin, ...requested])] } : lastGood.operator;
    const extraDirs = operator.hooks_dirs.map((dir) => ({ dir: resolvePath(dirname(file ?? locations.operatorFile.path), dir), origin: "dir" as const, required: true }));
    return { sources: [...locations.hookSources, ...extraDirs], operator, operatorFile: file, embedded, diagnostics };
  };
  return Registry.load(readInputs, { fs: host.fs, capabilities }, onReload);
}
