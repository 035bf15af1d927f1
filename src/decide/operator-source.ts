import { formatDiagnostic, type Diagnostic } from "../hooks/config/diagnostic.ts";
import type { parseYaml } from "../hooks/config/diagnostics.ts";
import type { OperatorFile, operatorFileSchema } from "../hooks/config/schema.ts";
import type { OperatorStatus } from "../hooks/registry/registry.ts";
import type { EmbeddedHook } from "../hooks/registry/sources.ts";
import type { FileHost } from "../platform/index.ts";
import { closest } from "../core/text/suggest.ts";
import { withSelfProtect, type SelfProtectMachine } from "./self-protect.ts";
import type { SystemPolicyLocation } from "../hooks/config/system-tier.ts";
import { applySystemLayer, readSystemLayer, systemLayerStamp, type OperatorLayers, type SystemLayerFs } from "./system-layer.ts";
import { dirname } from "../core/text/posix-path.ts";

/** The operator file as the hook sets see it: what is in force, and how it stands. */
export interface OperatorView {
  readonly operator: OperatorFile;
  /** The file in force (undefined: none, all defaults, or an inline operator). */
  readonly file: string | undefined;
  readonly status: OperatorStatus;
  /** Files a change of which changes the operator (its path, even when missing). */
  readonly watched: readonly string[];
  /** Under a system policy: how the operator in force was merged from it and the user's file. */
  readonly layers?: OperatorLayers;
}

export interface OperatorSource {
  read(): Promise<OperatorView>;
}

export interface OperatorFileOptions {
  readonly fs: Pick<FileHost, "readText" | "stamp"> & Partial<SystemLayerFs>;
  readonly path: string;
  /** Given with --config: a missing file is a problem, not all defaults. */
  readonly explicit: boolean;
  /** Standard hooks enabled by flags (--builtin), on top of the file's `builtin`; "all" for every one. */
  readonly builtinFlags: readonly string[];
  readonly embeddedIds: readonly string[];
  /**
   * The standard hooks themselves, for `--builtin all`: it means every standard hook that works
   * here, so it leaves out one whose model endpoint hookbox.yaml `llm` does not configure
   * (registry/model-endpoints.ts). Named by id, such a hook is enabled all the same. Without
   * them, `all` is every id.
   */
  readonly embedded?: ReadonlyMap<string, EmbeddedHook>;
  /**
   * Keep the last good operator file when it becomes invalid (a long-lived daemon). A one-shot
   * `emit` has no last good one: an invalid file denies every event, since the operator's intent
   * cannot be known and Hookbox does not guess it.
   */
  readonly keepLastGood: boolean;
  /** Where Hookbox's state is on this machine: self-protect's locations (it is on by default). */
  readonly machine?: SelfProtectMachine;
  /**
   * The system policy (locations.system), merged under the operator file: what the file and
   * projects add to but never weaken (hooks/config/layers.ts). Needs the full FileHost.
   */
  readonly systemPolicy?: SystemPolicyLocation;
}

/** The operator file on disk, re-read when its stamp changes. */
export function operatorFileSource(options: OperatorFileOptions): OperatorSource {
  let cached: { stamp: string; view: OperatorView } | undefined;
  let lastGood: { operator: OperatorFile; file: string | undefined } | undefined;
  return {
    async read() {
      const userStamp = await options.fs.stamp(options.path);
      const system = systemOf(options);
      const stamp = system ? `${userStamp}|${await systemLayerStamp(system.fs, system.location)}` : userStamp;
      if (cached && cached.stamp === stamp) return cached.view;
      const read = await readOperator(options, userStamp);
      const watched = system ? [options.path, system.location.path] : [options.path];
      let view: OperatorView;
      if (read.ok) {
        lastGood = { operator: read.operator, file: read.file, ...(read.layers ? { layers: read.layers } : {}) };
        view = { ...lastGood, status: { state: "ok" }, watched };
      } else if (options.keepLastGood && lastGood) {
        view = { ...lastGood, status: { state: "last-good", problems: read.problems }, watched };
      } else {
        view = {
          operator: (await schemas()).operatorFileSchema.parse({}),
          file: options.path,
          status: { state: "unusable", problems: read.problems },
          watched,
        };
      }
      cached = { stamp, view };
      return view;
    },
  };
}

/** An operator given as data (fixtures of `hookbox test`). */
export function inlineOperatorSource(
  input: unknown,
  embeddedIds: readonly string[],
  builtinFlags: readonly string[] = [],
  machine?: SelfProtectMachine,
): OperatorSource {
  let view: Promise<OperatorView> | undefined;
  const build = async (): Promise<OperatorView> => {
    const { operatorFileSchema } = await schemas();
    const parsed = operatorFileSchema.safeParse(input ?? {});
    const problems: Diagnostic[] = parsed.success
      ? []
      : parsed.error.issues.map((issue) => ({ file: "operator", line: 1, column: 1, field: issue.path.join("."), message: issue.message }));
    const operator = parsed.success
      ? withSelfProtect(withBuiltins(parsed.data, { builtinFlags, embeddedIds }, undefined, "operator", problems), embeddedIds, machine, undefined)
      : operatorFileSchema.parse({});
    return { operator, file: undefined, status: problems.length ? { state: "unusable", problems } : { state: "ok" }, watched: [] };
  };
  return { read: () => (view ??= build()) };
}

/**
 * The YAML reader and the config schemas, loaded when an operator file is really read: a
 * process whose hook sets come from the snapshot cache never needs them.
 */
async function schemas(): Promise<{ parseYaml: typeof parseYaml; operatorFileSchema: typeof operatorFileSchema }> {
  const [yaml, schema] = await Promise.all([import("../hooks/config/diagnostics.ts"), import("../hooks/config/schema.ts")]);
  return { parseYaml: yaml.parseYaml, operatorFileSchema: schema.operatorFileSchema };
}

type Read = { ok: true; operator: OperatorFile; file: string | undefined; layers?: OperatorLayers } | { ok: false; problems: readonly Diagnostic[] };

/** The system policy to merge, when there is one to look for and the file calls to read it. */
function systemOf(options: OperatorFileOptions): { fs: SystemLayerFs; location: SystemPolicyLocation } | undefined {
  const { fs, systemPolicy } = options;
  if (!systemPolicy || !fs.owner || !fs.mode || !fs.realpath || !fs.listDir) return undefined;
  return { fs: fs as SystemLayerFs, location: systemPolicy };
}

async function readOperator(options: OperatorFileOptions, stamp: string): Promise<Read> {
  const { path } = options;
  const { parseYaml, operatorFileSchema } = await schemas();
  const found = systemOf(options);
  const system = found ? await readSystemLayer(found.fs, found.location, parseYaml, operatorFileSchema) : { kind: "absent" as const };
  if (system.kind === "unusable") return { ok: false, problems: system.problems };
  let user: { operator: OperatorFile; written: unknown; text?: string };
  if (stamp === "missing") {
    if (options.explicit)
      return { ok: false, problems: [{ file: path, line: 1, column: 1, field: "", message: "operator file not found (given with --config)" }] };
    user = { operator: operatorFileSchema.parse({}), written: {} };
  } else {
    let text: string;
    try {
      text = await options.fs.readText(path);
    } catch (error) {
      return { ok: false, problems: [{ file: path, line: 1, column: 1, field: "", message: `cannot read: ${(error as Error).message}` }] };
    }
    const parsed = parseYaml(text, path, operatorFileSchema);
    if (!parsed.ok) return { ok: false, problems: parsed.diagnostics };
    user = { operator: parsed.value, written: parsed.input, text };
  }
  const file = stamp === "missing" ? undefined : path;
  const layered =
    system.kind === "ok" ? applySystemLayer(system, { file, baseDir: dirname(path), operator: user.operator, written: user.written }) : undefined;
  const problems: Diagnostic[] = [];
  const operator = withSelfProtect(
    withBuiltins(layered?.operator ?? user.operator, options, await modelNeeds(options), path, problems, user.text),
    options.embeddedIds,
    options.machine,
    file,
  );
  if (problems.length) return { ok: false, problems };
  return { ok: true, operator, file, ...(layered ? { layers: layered.layers } : {}) };
}

/**
 * The file's `builtin` plus the flags', each checked against the standard hooks this binary
 * carries: a misspelt id would otherwise leave a guard the operator asked for silently off.
 * The flag `all` is every standard hook that works here (see OperatorFileOptions.embedded).
 */
function withBuiltins(
  operator: OperatorFile,
  options: Pick<OperatorFileOptions, "builtinFlags" | "embeddedIds">,
  needs: ((id: string) => readonly string[]) | undefined,
  file: string,
  problems: Diagnostic[],
  text?: string,
): OperatorFile {
  const { builtinFlags: flags, embeddedIds } = options;
  const known = new Set(embeddedIds);
  const works = (id: string): boolean => (needs?.(id) ?? []).every((name) => Object.hasOwn(operator.llm, name));
  const requested = flags.includes("all") ? [...new Set([...embeddedIds.filter(works), ...flags.filter((flag) => flag !== "all")])] : flags;
  operator.builtin.forEach((id, index) => {
    if (!known.has(id))
      problems.push({
        file,
        ...lineOf(text, id),
        field: `builtin.${index}`,
        message: `no standard hook "${id}"${suggestion(id, embeddedIds)}; this binary has: ${[...known].sort().join(", ") || "none"}`,
      });
  });
  for (const id of requested) {
    if (!known.has(id))
      problems.push({
        file: "--builtin",
        line: 1,
        column: 1,
        field: "",
        message: `no standard hook "${id}"${suggestion(id, embeddedIds)}; this binary has: ${[...known].sort().join(", ") || "none"}`,
      });
  }
  return requested.length > 0 ? { ...operator, builtin: [...new Set([...operator.builtin, ...requested])] } : operator;
}

/** What each standard hook needs of hookbox.yaml `llm`, read only when `--builtin all` asks (it parses their YAML). */
async function modelNeeds(options: OperatorFileOptions): Promise<((id: string) => readonly string[]) | undefined> {
  const embedded = options.embedded;
  if (!embedded || !options.builtinFlags.includes("all")) return undefined;
  const { modelEndpointsOf } = await import("../hooks/registry/model-endpoints.ts");
  return (id) => {
    const hook = embedded.get(id);
    return hook ? modelEndpointsOf(hook) : [];
  };
}

function lineOf(text: string | undefined, id: string): { line: number; column: number } {
  if (text === undefined) return { line: 1, column: 1 };
  const lines = text.split("\n");
  const index = lines.findIndex((line) => line.includes(id));
  return index < 0 ? { line: 1, column: 1 } : { line: index + 1, column: (lines[index] as string).indexOf(id) + 1 };
}

function suggestion(id: string, known: readonly string[]): string {
  const near = closest(id, known);
  return near ? ` (did you mean "${near}"?)` : "";
}

/** The problems of an unusable or replaced operator file, one line each. */
export function describeOperatorProblems(problems: readonly Diagnostic[]): string {
  return problems.slice(0, 3).map(formatDiagnostic).join("; ") + (problems.length > 3 ? ` (and ${problems.length - 3} more)` : "");
}
