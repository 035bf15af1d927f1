import type { Command } from "commander";
import { formatDiagnostic, type Diagnostic } from "../hooks/config/diagnostics.ts";
import type { Locations } from "../hooks/config/locations.ts";
import { HookboxError } from "../core/errors.ts";
import type { ProjectHookSet } from "../decide/hook-sets.ts";
import type { CliContext } from "./context.ts";
import { closest } from "../core/text/suggest.ts";
import { EXIT } from "./exit-codes.ts";
import { currentHookSet } from "./hook-set.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { addHookOptions, locationsFrom } from "./setup.ts";

/** What `hookbox show` prints (snake_case: it is also the --json output). */
export interface HookDescription {
  readonly id: string;
  /** builtin (a standard hook in this binary), user, dir or project. */
  readonly origin: string;
  readonly file: string;
  /** Whether it runs for events from here: a standard hook only when the operator file (or --builtin) enables it. */
  readonly enabled: boolean;
  readonly summary: string | null;
  /** What it may do here, its YAML's permissions as the operator file narrows them ("may:" in hookbox list). */
  readonly grants: readonly string[];
  /** Why it does not load, when it does not. */
  readonly problems: readonly string[];
  readonly yaml: string;
  readonly readme: string | null;
}

/**
 * The hook `id` as this project would run it, else the standard hook of that id as it would run
 * if enabled: a standard hook is loaded alone (no other source), under the same operator file.
 */
export async function describeHook(ctx: CliContext, id: string, locations: Locations, runtime: HookRuntimeFactory): Promise<HookDescription> {
  const installed = await currentHookSet(ctx, locations, runtime);
  const found = describeIn(installed, id, true);
  const embedded = runtime.embedded().get(id);
  if (found)
    return {
      ...found,
      yaml: await readHookFile(ctx, found.file, embedded?.yaml),
      readme: await readme(ctx, found.file, embedded?.files["README.md"]),
    };
  if (!embedded) {
    const known = [
      ...new Set([
        ...installed.snapshot.hooks.map((h) => h.definition.id),
        ...installed.snapshot.broken.map((b) => b.id),
        ...runtime.embedded().keys(),
      ]),
    ];
    const near = closest(id, known);
    throw new HookboxError(
      "not_found",
      `no hook "${id}" here or among the standard hooks${near ? ` — did you mean ${near}?` : ""} (standard: ${[...runtime.embedded().keys()].sort().join(", ")}; hookbox list shows this project's)`,
    );
  }
  const alone = describeIn(await currentHookSet(ctx, { ...locations, hookSources: [], builtin: [id] }, runtime), id, false);
  if (!alone) throw new HookboxError("internal", `the standard hook ${id} did not load on its own (a bug in Hookbox)`);
  return { ...alone, yaml: embedded.yaml, readme: embedded.files["README.md"] ?? null };
}

function describeIn(set: ProjectHookSet, id: string, enabled: boolean): Omit<HookDescription, "yaml" | "readme"> | undefined {
  const hook = set.snapshot.hooks.find((h) => h.definition.id === id);
  if (hook) {
    const d = hook.definition;
    return {
      id,
      origin: d.source.origin,
      file: hook.file,
      enabled: enabled && d.enabled,
      summary: d.summary || null,
      grants: [...hook.grants.summary],
      problems: [],
    };
  }
  const broken = set.snapshot.broken.find((b) => b.id === id);
  if (!broken) return undefined;
  return {
    id,
    origin: broken.origin,
    file: broken.file,
    enabled: enabled && broken.enabled,
    summary: null,
    grants: [],
    problems: broken.problems.map((p: Diagnostic) => formatDiagnostic(p)),
  };
}

async function readHookFile(ctx: CliContext, file: string, embedded: string | undefined): Promise<string> {
  if (file.startsWith("builtin:") && embedded !== undefined) return embedded;
  return ctx.host.fs.readText(file).catch(() => "");
}

/** The README beside a hook's hook.yaml (a hook given as a bare <name>.yaml has none of its own). */
async function readme(ctx: CliContext, file: string, embedded: string | undefined): Promise<string | null> {
  if (file.startsWith("builtin:")) return embedded ?? null;
  if (!/\/hook\.ya?ml$/.test(file)) return null;
  return ctx.host.fs.readText(`${file.slice(0, file.lastIndexOf("/"))}/README.md`).catch(() => null);
}

export function registerShow(program: Command, ctx: CliContext, setExit: (code: number) => void, runtime: HookRuntimeFactory): void {
  addHookOptions(
    program
      .command("show")
      .description("Show a hook, standard or installed: what it may do here (its effective grants), its YAML and its README")
      .argument("<id>", "the hook's id (hookbox list, hookbox list --builtin)")
      .option("--json", "print it as JSON"),
  ).action(async (id: string, options: { hooks?: string[]; config?: string; builtin?: string[]; json?: boolean }) => {
    const hook = await describeHook(ctx, id, locationsFrom(ctx, options), runtime);
    if (options.json) await ctx.out(`${JSON.stringify(hook, null, 2)}\n`);
    else await ctx.out(format(hook));
    setExit(hook.problems.length === 0 ? EXIT.ok : EXIT.failed);
  });
}

function format(hook: HookDescription): string {
  const where = hook.origin === "builtin" ? "a standard hook in this binary" : `${hook.origin} hook, ${hook.file}`;
  const enabled = hook.enabled
    ? "runs here"
    : hook.origin === "builtin"
      ? `not enabled: add it to hookbox.yaml (builtin: [${hook.id}]) or pass --builtin ${hook.id}`
      : "disabled (enabled: false)";
  const lines = [`${hook.id}${hook.summary ? ` — ${hook.summary}` : ""}`, `  ${where}; ${enabled}`];
  if (hook.problems.length > 0)
    lines.push("", "Does not load (it fails by its on_error wherever it would run):", ...hook.problems.map((p) => `  ${p}`));
  else
    lines.push(
      "",
      "May (its permissions as the operator file narrows them):",
      ...(hook.grants.length ? hook.grants.map((g) => `  ${g}`) : ["  nothing: it decides from the event alone"]),
    );
  lines.push("", `── ${hook.origin === "builtin" ? "hook.yaml" : hook.file} ──`, hook.yaml.trimEnd());
  if (hook.readme !== null) lines.push("", "── README.md ──", hook.readme.trimEnd());
  return `${lines.join("\n")}\n`;
}
