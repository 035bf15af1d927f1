import type { Diagnostic } from "../hooks/config/diagnostic.ts";
import type { Locations } from "../hooks/config/locations.ts";
import { createHookSets } from "../decide/compose.ts";
import type { ProjectHookSet } from "../decide/hook-sets.ts";
import type { OperatorView } from "../decide/operator-source.ts";
import { findProjectRoot } from "../decide/project.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";

/**
 * The hook set an event from this directory would get: commands run by a person in a project
 * (list, validate, doctor) show exactly what the evaluator would run there.
 */
export async function currentHookSet(
  ctx: CliContext,
  locations: Locations,
  runtime: HookRuntimeFactory,
): Promise<ProjectHookSet & { readonly operatorView: OperatorView }> {
  const { hookSets } = createHookSets({
    host: ctx.host,
    locations,
    capabilities: runtime.capabilities(locations),
    embedded: runtime.embedded(),
    via: "cli",
  });
  const explicit = locations.hookSources.every((source) => source.origin === "dir");
  const set = await hookSets.forProject(explicit ? undefined : await findProjectRoot(ctx.host.fs, ctx.host.cwd(), ctx.host.homeDir()));
  // The operator file as the set saw it (read once: the source caches it by its stamp), with how a system policy shaped it.
  return { ...set, operatorView: await hookSets.operatorView() };
}

/**
 * 2 (EXIT.usage) when an input the command line named is missing or unreadable — the operator
 * file of --config or $HOOKBOX_CONFIG, a --hooks directory — as the exit-code table says, rather
 * than 1 (what was checked failed); undefined otherwise. The problem itself is reported as usual.
 */
export async function missingInputExit(ctx: CliContext, locations: Locations): Promise<number | undefined> {
  const fs = ctx.host.fs;
  if (
    locations.operatorFile.explicit &&
    !(await fs.readText(locations.operatorFile.path).then(
      () => true,
      () => false,
    ))
  )
    return EXIT.usage;
  for (const source of locations.hookSources) if (source.required && (await fs.kind(source.dir)) !== "dir") return EXIT.usage;
  return undefined;
}

/** Every problem of a hook set: the operator file's, then the hooks'. */
export function problemsOf(set: ProjectHookSet): Diagnostic[] {
  const status = set.snapshot.operatorStatus;
  return [
    ...(status.state === "ok"
      ? []
      : status.problems.map((d) =>
          status.state === "last-good"
            ? d
            : { ...d, message: `${d.message} (the operator file is unusable: every event is denied until it is fixed)` },
        )),
    ...set.snapshot.diagnostics,
  ];
}
