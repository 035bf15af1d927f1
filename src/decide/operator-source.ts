import { formatDiagnostic, type Diagnostic } from "../hooks/config/diagnostic.ts";
import type { parseYaml } from "../hooks/config/diagnostics.ts";
import type { OperatorFile, operatorFileSchema } from "../hooks/config/schema.ts";
import type { OperatorStatus } from "../hooks/registry/registry.ts";
import type { EmbeddedHook } from "../hooks/registry/sources.ts";
import type { FileHost } from "../platform/index.ts";
import { closest } from "../core/text/suggest.ts";
import { withSelfProtect, type SelfProtectMachine } from "./self-protect.ts";

/** The operator file as the hook sets see it: what is in force, and how it stands. */
export interface OperatorView {
  readonly operator: OperatorFile;
  /** The file in force (undefined: none, all defaults, or an inline operator). */
  readonly file: string | undefined;
  readonly status: OperatorStatus;
  /** Files a change of which changes the operator (its path, even when missing). */
  readonly watched: readonly string[];
}

export interface OperatorSource {
  read(): Promise<OperatorView>;
}

export interface OperatorFileOptions {
  readonly fs: Pick<FileHost, "readText" | "stamp">;
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
}

/** The operator file on disk, re-read when its stamp changes. */
export function operatorFileSource(options: OperatorFileOptions): OperatorSource {
  let cached: { stamp: string; view: OperatorView } | undefined;
  let lastGood: { operator: OperatorFile; file: string | undefined } | undefined;
  return {
    async read() {
      const stamp = await options.fs.stamp(options.path);
      if (cached && cached.stamp === stamp) return cached.view;
      const read = await readOperator(options, stamp);
      let view: OperatorView;
      if (read.ok) {
        lastGood = { operator: read.operator, file: read.file };
        view = { operator: read.operator, file: read.file, status: { state: "ok" }, watched: [options.path] };
      } else if (options.keepLastGood && lastGood) {
        view = { ...lastGood, status: { state: "last-good", problems: read.problems }, watched: [options.path] };
      } else {
        view = {
          operator: (await schemas()).operatorFileSchema.parse({}),
          file: options.path,
          status: { state: "unusable", problems: read.problems },
          watched: [options.path],
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

type Read = { ok: true; operator: OperatorFile; file: string | undefined } | { ok: false; problems: readonly Diagnostic[] };

async function readOperator(options: OperatorFileOptions, stamp: string): Promise<Read> {
  const { path } = options;
  const { parseYaml, operatorFileSchema } = await schemas();
  if (stamp === "missing") {
    if (options.explicit)
      return { ok: false, problems: [{ file: path, line: 1, column: 1, field: "", message: "operator file not found (given with --config)" }] };
    const problems: Diagnostic[] = [];
    const operator = withSelfProtect(
      withBuiltins(operatorFileSchema.parse({}), options, await modelNeeds(options), path, problems),
      options.embeddedIds,
      options.machine,
      undefined,
    );
    return problems.length ? { ok: false, problems } : { ok: true, operator, file: undefined };
  }
  let text: string;
  try {
    text = await options.fs.readText(path);
  } catch (error) {
    return { ok: false, problems: [{ file: path, line: 1, column: 1, field: "", message: `cannot read: ${(error as Error).message}` }] };
  }
  const parsed = parseYaml(text, path, operatorFileSchema);
  if (!parsed.ok) return { ok: false, problems: parsed.diagnostics };
  const problems: Diagnostic[] = [];
  const operator = withSelfProtect(
    withBuiltins(parsed.value, options, await modelNeeds(options), path, problems, text),
    options.embeddedIds,
    options.machine,
    path,
  );
  return problems.length ? { ok: false, problems } : { ok: true, operator, file: path };
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
