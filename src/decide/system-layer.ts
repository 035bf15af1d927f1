import type { Diagnostic } from "../hooks/config/diagnostic.ts";
import type { parseYaml } from "../hooks/config/diagnostics.ts";
import { layerOperators, type IgnoredSetting, type OperatorLayer, type SettingOrigin } from "../hooks/config/layers.ts";
import { operatorHooksDirs } from "../hooks/config/locations.ts";
import type { OperatorFile, operatorFileSchema } from "../hooks/config/schema.ts";
import { untrustedSystemPath, type SystemPolicyLocation } from "../hooks/config/system-tier.ts";
import { dirname } from "../core/text/posix-path.ts";
import { layeredFailClosed } from "./rule.ts";
import type { FileHost } from "../platform/index.ts";

/** The file-system calls reading the system policy needs: its content, and who can change it. */
export type SystemLayerFs = Pick<FileHost, "readText" | "stamp" | "owner" | "mode" | "realpath" | "listDir">;

/** How the operator in force was made from the system policy and the user's file (validate and doctor explain it). */
export interface OperatorLayers {
  readonly system: string;
  readonly user: string | undefined;
  /** The system's hooks_dirs, resolved: loaded before the user's own hooks, so no user hook takes one of their ids. */
  readonly systemHooksDirs: readonly string[];
  readonly origins: readonly SettingOrigin[];
  readonly ignored: readonly IgnoredSetting[];
}

export type SystemLayer =
  | { readonly kind: "absent" }
  | { readonly kind: "unusable"; readonly problems: readonly Diagnostic[] }
  | { readonly kind: "ok"; readonly layer: OperatorLayer; readonly hookIds: ReadonlySet<string> };

/**
 * What the system policy's state is, as a stamp: the file's and its hook directories', so a
 * change to either is read again.
 */
export async function systemLayerStamp(fs: SystemLayerFs, location: SystemPolicyLocation): Promise<string> {
  const file = await fs.stamp(location.path);
  return `${file}|${await fs.stamp(`${dirname(location.path)}/hooks`)}`;
}

/**
 * The system policy, read only when root alone can change it: a policy another user could edit
 * would let that user switch off everyone's guards, so it makes every event denied (loudly)
 * rather than be applied or ignored. Absent, it is no layer — unless required (emit --system).
 */
export async function readSystemLayer(
  fs: SystemLayerFs,
  location: SystemPolicyLocation,
  parse: typeof parseYaml,
  schema: typeof operatorFileSchema,
): Promise<SystemLayer> {
  const problem = (message: string): SystemLayer => ({
    kind: "unusable",
    problems: [{ file: location.path, line: 1, column: 1, field: "", message }],
  });
  if ((await fs.stamp(location.path)) === "missing") {
    if (!location.required) return { kind: "absent" };
    return problem(
      "the system policy is not there: this agent's managed settings run hookbox emit --system, and without the system policy nothing is allowed (hookbox install --system writes it; uninstall --system takes the entries out too)",
    );
  }
  const untrusted = await untrustedSystemPath(fs, location.path);
  if (untrusted)
    return problem(`the system policy cannot be trusted: ${untrusted}. As root: chown root: and chmod go-w each, or hookbox install --system again`);
  let text: string;
  try {
    text = await fs.readText(location.path);
  } catch (error) {
    return problem(`cannot read: ${(error as Error).message}`);
  }
  const parsed = parse(text, location.path, schema);
  if (!parsed.ok) return { kind: "unusable", problems: parsed.diagnostics };
  const baseDir = dirname(location.path);
  const dirs = operatorHooksDirs(location.path, baseDir, parsed.value.hooks_dirs);
  for (const dir of dirs) {
    const untrustedDir = await untrustedSystemPath(fs, dir, "dir");
    // A missing directory is the registry's to report (hook directory not found): it holds no hook anyone could change.
    if (untrustedDir && !untrustedDir.endsWith("does not exist"))
      return problem(`the system policy's hooks_dirs cannot be trusted: ${untrustedDir}. As root: chown -R root: and chmod -R go-w`);
  }
  return { kind: "ok", layer: { file: location.path, baseDir, operator: parsed.value, written: parsed.input }, hookIds: await hookIdsIn(fs, dirs) };
}

/** The system and the user layers merged (layers.ts), and how. */
export function applySystemLayer(
  system: Extract<SystemLayer, { kind: "ok" }>,
  user: { readonly file: string | undefined; readonly baseDir: string; readonly operator: OperatorFile; readonly written: unknown },
): { readonly operator: OperatorFile; readonly layers: OperatorLayers } {
  const merged = layerOperators(system.layer, user, system.hookIds);
  const failClosed = layeredFailClosed(system.layer, user);
  return {
    operator: { ...merged.operator, fail_closed: failClosed.value },
    layers: {
      system: system.layer.file as string,
      user: user.file,
      systemHooksDirs: operatorHooksDirs(system.layer.file, system.layer.baseDir, system.layer.operator.hooks_dirs),
      origins: failClosed.origin ? [...merged.origins, failClosed.origin] : merged.origins,
      ignored: failClosed.ignored ? [...merged.ignored, failClosed.ignored] : merged.ignored,
    },
  };
}

const ID_LINE = /^id:\s*["']?([a-z0-9][a-z0-9_-]{0,63})["']?\s*(#.*)?$/m;

/**
 * The ids of the hooks in the system's hook directories, read from their `id:` lines (the
 * registry loads them properly): the user's file may not reconfigure these.
 */
async function hookIdsIn(fs: SystemLayerFs, dirs: readonly string[]): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const dir of dirs) {
    const entries = await fs.listDir(dir).catch(() => []);
    for (const entry of entries) {
      const file =
        entry.kind === "file" && /\.ya?ml$/.test(entry.name) && !/^hookbox\.ya?ml$/.test(entry.name)
          ? `${dir}/${entry.name}`
          : entry.kind === "dir"
            ? `${dir}/${entry.name}/hook.yaml`
            : undefined;
      const text = file === undefined ? undefined : await fs.readText(file).catch(() => undefined);
      const id = text === undefined ? undefined : ID_LINE.exec(text)?.[1];
      if (id !== undefined) ids.add(id);
    }
  }
  return ids;
}
