import { compileHandler, createHandlerSpec, rememberCompiled, type CompiledHandler, type HandlerSpec } from "../../../sandbox/index.ts";
import { guestModuleSources } from "../builtin/index.ts";
import type { GrantReport } from "../../capabilities/review/types.ts";
import { HOOK_API_METHODS, type CapabilityHost, type PreparedGrants } from "../../capabilities/types.ts";
import { locate, parseYaml } from "../config/diagnostics.ts";
import { type Diagnostic } from "../config/diagnostic.ts";
import { resolveHook, type HookDefinition } from "../config/resolve.ts";
import { hookFileSchema, type OperatorFile } from "../config/schema.ts";
import { dirname, isInside, resolvePath } from "../../core/text/posix-path.ts";
import { parseDocument } from "yaml";
import { brokenHook, lenientObject, type BrokenHook } from "./broken.ts";
import { compileMatcher, type Matcher } from "./matcher.ts";
import { packagesOf, type PackageCheck } from "./packages.ts";
import { embeddedFile, hookFilesIn, type EmbeddedHook, type HookFileReader, type HookFileRef, type HookSource } from "./sources.ts";
import { hookDigest, isTrusted, type ProjectTrust } from "./trust.ts";
import { grantKeys } from "../../capabilities/grants/keys.ts";

/** A hook ready to run: its definition, compiled handler, prepared grants and matcher. */
export interface LoadedHook {
  readonly definition: HookDefinition;
  /** The compiled handler; undefined for a hook written in YAML alone (steps and then). */
  readonly spec: HandlerSpec | undefined;
  readonly grants: PreparedGrants;
  /** The effective grants (capabilities' review, computed once at load): what list, validate and doctor show. */
  readonly review: GrantReport;
  /** Its YAML and handler source, hashed (trust.ts hookDigest): what `hookbox trust` records. */
  readonly digest: string;
  readonly matcher: Matcher;
  readonly file: string;
}

export interface LoadInputs {
  readonly sources: readonly HookSource[];
  readonly operator: OperatorFile;
  /** Where the operator file is (for messages); undefined when there is none. */
  readonly operatorFile: string | undefined;
  /** Standard hooks embedded in the binary; those listed in `operator.builtin` are loaded. */
  readonly embedded: ReadonlyMap<string, EmbeddedHook>;
  /** Problems found while gathering these inputs (the operator file's warnings), reported with the hooks'. */
  readonly diagnostics?: readonly Diagnostic[];
  /** Which of the project's hooks the user trusted; absent, a project hook that declares grants gets none. */
  readonly trust?: ProjectTrust;
}

export interface LoadDeps {
  readonly fs: HookFileReader;
  readonly capabilities: CapabilityHost;
}

export interface LoadResult {
  readonly hooks: readonly LoadedHook[];
  /** Hooks that did not load: they stay registered, and fail by their on_error where they would have run. */
  readonly broken: readonly BrokenHook[];
  /** The operator file the hooks were loaded under (dispatch settings come from it). */
  readonly operator: OperatorFile;
  readonly diagnostics: readonly Diagnostic[];
  /** Every hook file looked at, with the id it declared when that could be read. */
  readonly files: ReadonlyMap<string, string | undefined>;
  /** Every file a load read or looked for (hook files, handlers, directories): what its freshness depends on. */
  readonly inputs: readonly string[];
}

/**
 * Load every hook; all problems are collected (none stops the others from loading). A hook that
 * cannot load becomes a broken entry, never a silent absence.
 */
export async function loadHooks(inputs: LoadInputs, deps: LoadDeps): Promise<LoadResult> {
  const diagnostics: Diagnostic[] = [...(inputs.diagnostics ?? [])];
  const refs: HookFileRef[] = [];
  const looked: string[] = [];
  const checks = new Map<HookFileRef, () => Promise<PackageCheck>>();
  const missingPackages: BrokenHook[] = [];
  for (const id of inputs.operator.builtin) {
    const hook = inputs.embedded.get(id);
    if (hook) refs.push(embeddedFile(hook));
    else
      diagnostics.push(
        operatorProblem(inputs, ["builtin"], `no standard hook "${id}"; known: ${[...inputs.embedded.keys()].sort().join(", ") || "none"}`),
      );
  }
  for (const source of inputs.sources) {
    const { files, missing, dirs } = await hookFilesIn(deps.fs, source);
    looked.push(source.dir, ...dirs);
    if (missing && source.required) diagnostics.push({ file: source.dir, line: 1, column: 1, field: "", message: "hook directory not found" });
    const described = await packagesOf(deps.fs, source, files, inputs.operator);
    looked.push(described.lock);
    refs.push(...described.refs);
    for (const [ref, check] of described.checks) checks.set(ref, check);
    missingPackages.push(...described.missing);
    diagnostics.push(...described.missing.flatMap((entry) => entry.problems));
  }
  const hooks: LoadedHook[] = [];
  const broken: BrokenHook[] = [...missingPackages];
  const files = new Map<string, string | undefined>();
  const seen = new Map<string, string>();
  for (const ref of refs) {
    const before = diagnostics.length;
    const pending = checks.get(ref);
    if (pending) {
      const check = await pending();
      looked.push(...check.read);
      if (check.broken) {
        diagnostics.push(...check.broken.problems);
        files.set(ref.file, check.broken.id);
        if (!seen.has(check.broken.id)) seen.set(check.broken.id, ref.file);
        broken.push(check.broken);
        continue;
      }
    }
    const loaded = await loadOne(ref, inputs, deps, diagnostics);
    if (ref.origin !== "builtin") looked.push(ref.file, ...loaded.read);
    files.set(ref.file, loaded.id);
    const id = loaded.hook?.definition.id ?? loaded.id;
    const previous = id !== undefined ? seen.get(id) : undefined;
    if (previous !== undefined) {
      diagnostics.push({
        file: ref.file,
        ...loaded.idAt,
        field: "id",
        message: `duplicate hook id "${id}": also defined in ${previous}; rename one of them`,
      });
    } else if (loaded.hook) {
      seen.set(loaded.hook.definition.id, ref.file);
      hooks.push(loaded.hook);
      continue;
    } else if (id !== undefined) {
      seen.set(id, ref.file);
    }
    const problems = diagnostics.slice(before).filter((d) => d.severity !== "warning");
    broken.push(brokenHook(ref.file, ref.origin, loaded.text, problems, inputs.operator, previous === undefined ? loaded.id : `${id}@${ref.file}`));
  }
  return { hooks, broken, operator: inputs.operator, diagnostics, files, inputs: [...new Set(looked)] };
}

interface OneResult {
  readonly hook?: LoadedHook;
  readonly id?: string;
  readonly idAt: { line: number; column: number };
  /** The hook file's text, when it could be read (a broken entry reads what it can of it). */
  readonly text?: string;
  /** Files besides the hook file this load read (its handler). */
  readonly read: readonly string[];
}

async function loadOne(ref: HookFileRef, inputs: LoadInputs, deps: LoadDeps, diagnostics: Diagnostic[]): Promise<OneResult> {
  const start = { line: 1, column: 1 };
  let text: string;
  try {
    text = await ref.read(ref.file);
  } catch (error) {
    diagnostics.push({ file: ref.file, ...start, field: "", message: `cannot read: ${(error as Error).message}` });
    return { idAt: start, read: [] };
  }
  const parsed = parseYaml(text, ref.file, hookFileSchema);
  const at = (path: (string | number)[]): { line: number; column: number } => locate(text, path);
  const read: string[] = [];
  if (!parsed.ok) {
    diagnostics.push(...parsed.diagnostics);
    // Every problem of a file at once: its handler is compiled too, when its YAML names one.
    const handler = parsed.diagnostics.some((d) => d.field === "handler" || d.field.startsWith("handler."))
      ? undefined
      : handlerNamedIn(text, ref.file);
    if (handler) await compileInto(ref, handler, read, diagnostics, at);
    return { idAt: start, text, read };
  }
  const file = parsed.value;
  const failed = (): OneResult => ({ id: file.id, idAt: at(["id"]), text, read });
  // Each check below runs whatever the others found, so one pass reports all of a file's problems.
  const before = diagnostics.filter((d) => d.severity !== "warning").length;
  const resolved = resolveHook(file, { file: ref.file, origin: ref.origin }, inputs.operator);
  if (!resolved.ok) diagnostics.push({ file: ref.file, ...at([resolved.field]), field: resolved.field, message: resolved.message });
  else if (ref.origin === "project") diagnostics.push(...watchOutsideProject(resolved.hook, ref.file, file.trigger ? "trigger" : "watch", at));
  const built = resolved.ok && resolved.hook.handler ? await compileInto(ref, resolved.hook.handler, read, diagnostics, at) : undefined;
  // A hook written in YAML alone has no source: its digest is its YAML's.
  const source = built?.source ?? "";
  const matcher = compileMatcher(file.match);
  if (!matcher.ok)
    for (const error of matcher.errors)
      diagnostics.push({ file: ref.file, ...at(error.field.split(".")), field: error.field, message: error.message });
  const permissions = resolved.ok ? resolved.hook.permissions : file.permissions;
  const digest = await hookDigest(text, source);
  // A project's hooks arrive with a `git clone`: they get their grants once the user trusts them.
  const untrusted = ref.origin === "project" && grantKeys(permissions).length > 0 && !(inputs.trust && isTrusted(inputs.trust, file.id, digest));
  const project = inputs.trust?.project ?? ref.file.slice(0, Math.max(0, ref.file.lastIndexOf("/.hookbox/hooks/")));
  const prepared = await deps.capabilities.prepare(
    { hookId: file.id, permissions, file: ref.file, origin: ref.origin, ...(untrusted ? { untrusted: { project } } : {}) },
    inputs.operator,
  );
  if (!prepared.ok)
    for (const message of prepared.errors) diagnostics.push({ file: ref.file, ...at(["permissions"]), field: "permissions", message });
  else
    for (const message of prepared.warnings ?? [])
      diagnostics.push({ file: ref.file, ...at(["permissions"]), field: "permissions", message, severity: "warning" });
  if (!resolved.ok || !matcher.ok || !prepared.ok || diagnostics.filter((d) => d.severity !== "warning").length > before) return failed();
  const definition = resolved.hook;
  const compiled = built?.handler;
  const spec = compiled
    ? await createHandlerSpec({
        id: definition.id,
        handler: compiled,
        hostFunctions: HOOK_API_METHODS,
        hookData: { id: definition.id, config: definition.config },
        isolation: definition.isolation,
      })
    : undefined;
  const review = deps.capabilities.review(prepared.grants);
  return {
    hook: { definition, spec, grants: prepared.grants, review, digest, matcher: matcher.matcher, file: ref.file },
    id: file.id,
    idAt: at(["id"]),
    text,
    read,
  };
}

let precompiled: Promise<void> | undefined;

/**
 * The standard hooks' handlers as the build compiled them, handed to compileHandler once per
 * process, by the first load that compiles one (the module is ~0.7 MB: emit's daemon path and a
 * load from the snapshot cache never read it).
 */
function rememberPrecompiled(): Promise<void> {
  precompiled ??= import("../builtin/precompiled.generated.ts").then((m) => rememberCompiled(m.PRECOMPILED));
  return precompiled;
}

type Compiled =
  { ok: true; handler: CompiledHandler; source: string } | { ok: false; message: string; at?: { file: string; line: number; column: number } };

/** Compile a hook's handler; a failure goes into `diagnostics` at its line in the handler (else at `handler:` in the YAML). */
async function compileInto(
  ref: HookFileRef,
  handler: NonNullable<HookDefinition["handler"]>,
  read: string[],
  diagnostics: Diagnostic[],
  at: (path: (string | number)[]) => { line: number; column: number },
): Promise<{ handler: CompiledHandler; source: string } | undefined> {
  const built = await compile(ref, handler, read);
  if (built.ok) return built;
  diagnostics.push(
    built.at ? { ...built.at, field: "", message: built.message } : { file: ref.file, ...at(["handler"]), field: "handler", message: built.message },
  );
  return undefined;
}

/** The handler file a YAML the schema refused still names plainly (`handler: ./handler.ts`), kept inside the hook's directory as resolve.ts keeps it. */
function handlerNamedIn(text: string, hookFile: string): NonNullable<HookDefinition["handler"]> | undefined {
  // Not from a YAML that does not parse: what a lenient reading finds there may not be what was meant.
  if (parseDocument(text, { uniqueKeys: false }).errors.length > 0) return undefined;
  const named = lenientObject(text).handler;
  if (typeof named !== "string" || named === "") return undefined;
  const dir = dirname(hookFile);
  const path = resolvePath(dir, named);
  return isInside(dir, path) ? { kind: "file", path } : undefined;
}

/** Read (confined to the hook's directory) and compile a hook's handler. */
async function compile(ref: HookFileRef, handler: NonNullable<HookDefinition["handler"]>, read: string[]): Promise<Compiled> {
  let source: string;
  let filename: string;
  if (handler.kind === "file") {
    filename = handler.path;
    read.push(filename);
    const confined = await confineHandler(ref, filename);
    if (!confined.ok) return confined;
    try {
      source = await ref.read(confined.path);
    } catch (error) {
      return { ok: false, message: `cannot read the handler ${filename}: ${(error as Error).message}` };
    }
  } else {
    filename = `${ref.file}#handler`;
    source = handler.code;
  }
  if (ref.origin === "builtin") await rememberPrecompiled();
  const compiled = await compileHandler(source, filename, guestModuleSources);
  if (compiled.ok) return { ok: true, handler: compiled.handler, source };
  const location = compiled.failure.location;
  if (!location) return { ok: false, message: compiled.failure.message };
  return {
    ok: false,
    message: compiled.failure.message.replace(`${location.file}:${location.line}:${location.column}: `, ""),
    at: { file: location.file, line: location.line, column: location.column },
  };
}

/**
 * The handler file, with symlinks resolved, must be inside the hook's directory (also resolved):
 * resolve.ts refuses `../` as written; this refuses a symlink leading out. The file read is the
 * resolved one, the one that was checked. Embedded hooks have no file system (no realpath).
 */
async function confineHandler(ref: HookFileRef, path: string): Promise<{ ok: true; path: string } | { ok: false; message: string }> {
  if (!ref.realpath) return { ok: true, path };
  const dir = dirname(ref.file);
  let realDir: string;
  let real: string;
  try {
    realDir = await ref.realpath(dir);
    real = await ref.realpath(path);
  } catch (error) {
    return { ok: false, message: `cannot read the handler ${path}: ${(error as Error).message}` };
  }
  if (!isInside(realDir, real)) {
    return {
      ok: false,
      message: `${path} resolves to ${real} through a symbolic link, outside the hook's directory ${realDir}; keep the handler next to its YAML`,
    };
  }
  return { ok: true, path: real };
}

function operatorProblem(inputs: LoadInputs, path: string[], message: string): Diagnostic {
  return { file: inputs.operatorFile ?? "hookbox.yaml", line: 1, column: 1, field: path.join("."), message };
}

/**
 * A project's hook watches its project only (serve/triggers/targets.ts refuses the rest): a path
 * that is lexically outside it is refused here, where the author sees it, not in the daemon's log.
 */
function watchOutsideProject(
  hook: HookDefinition,
  file: string,
  key: "watch" | "trigger",
  at: (path: (string | number)[]) => { line: number; column: number },
): Diagnostic[] {
  const watch = hook.triggers.watch;
  const marker = file.lastIndexOf("/.hookbox/hooks/");
  if (!watch || marker < 0) return [];
  const project = file.slice(0, marker);
  const base = watch.baseDir === undefined ? project : resolvePath(project, watch.baseDir);
  const problems: Diagnostic[] = [];
  const prefix: (string | number)[] = key === "trigger" ? ["trigger", "watch"] : ["watch"];
  if (!isInside(project, base)) {
    const field = [...prefix, "base_dir"];
    problems.push({
      file,
      ...at(field),
      field: field.join("."),
      message: `${watch.baseDir} is outside the project ${project}: a project's hook watches its project only — give a folder inside it`,
    });
    return problems;
  }
  watch.paths.forEach((written, index) => {
    if (isInside(project, resolvePath(base, written))) return;
    const field = [...prefix, "paths", index];
    problems.push({
      file,
      ...at(field),
      field: field.join("."),
      message: `${written} is outside the project ${project}: a project's hook watches its project only — write a path inside it, or put the hook in your user hooks directory (outside a project, absolute paths are watched as written)`,
    });
  });
  return problems;
}
