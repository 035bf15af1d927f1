import type { Command } from "commander";
import { HookboxError } from "../core/errors.ts";
import { findProjectRoot } from "../decide/project.ts";
import type { LoadedHook } from "../hooks/registry/load.ts";
import { parseTrustRecord, setDigest, trustRecordPath, TRUST_VERSION, type TrustedHook, type TrustRecord } from "../hooks/registry/trust.ts";
import type { CliContext } from "./context.ts";
import { configOption } from "./package-session.ts";
import { EXIT } from "./exit-codes.ts";
import type { Locations } from "../hooks/config/locations.ts";
import { createHookSets } from "../decide/compose.ts";
import type { BrokenHook } from "../hooks/registry/broken.ts";
import { reviewLines, reviewWidth } from "./review-lines.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";
import { locationsFrom } from "./setup.ts";

/**
 * `hookbox trust`: give this project's hooks (`.hookbox/hooks`, which arrive with a clone) the
 * grants they declare, as the operator's rules allow them. Records each hook's digest and its
 * grants in the user's data directory; a hook that changes afterwards runs without grants again
 * until trusted anew. `--revoke` forgets the project.
 */
export function registerTrust(program: Command, ctx: CliContext, setExit: (code: number) => void, runtime: HookRuntimeFactory): void {
  program
    .command("trust")
    .description("Trust this project's own hooks (.hookbox/hooks): until then they run without any grant")
    .option("--revoke", "forget this project: its hooks run without grants again")
    .option("--json", "print what was recorded as JSON")
    .addOption(configOption())
    .addHelpText(
      "after",
      "\nRun it in the project (any directory under its root). What each hook gets is shown first; the record is kept in $XDG_DATA_HOME/hookbox/trust/ (never in the project).",
    )
    .action(async (options: { revoke?: boolean; json?: boolean; config?: string }) => {
      const locations = locationsFrom(ctx, options);
      const project = await findProjectRoot(ctx.host.fs, ctx.host.cwd(), ctx.host.homeDir());
      const file = await trustRecordPath(locations.dataDir, project);
      if (options.revoke) {
        await ctx.host.fs.remove(file);
        await (options.json
          ? ctx.out(`${JSON.stringify({ project, revoked: true, file }, null, 2)}\n`)
          : ctx.out(`${project}: its hooks run without grants again\n`));
        return setExit(EXIT.ok);
      }
      const { record, previous, mine, broken } = await recordTrust(ctx, locations, runtime, project);
      if (options.json) {
        await ctx.out(`${JSON.stringify({ ...record, file, broken: broken.map((entry) => entry.id) }, null, 2)}\n`);
      } else {
        const lines = [`trusted ${project}: ${mine.length} hook${mine.length === 1 ? "" : "s"} (recorded in ${file})`];
        for (const hook of mine) {
          const before = previous?.hooks[hook.definition.id];
          const state = before === undefined ? "new" : before.digest === hook.digest ? "unchanged" : "changed since last trusted";
          lines.push(`  ${hook.definition.id} (${state})`, ...reviewLines({ lines: hook.review.lines }, "    ", { width: reviewWidth(ctx) }));
        }
        for (const entry of broken) lines.push(`  ${entry.id}: BROKEN, not trusted (it does not load; hookbox validate says why)`);
        await ctx.out(`${lines.join("\n")}\n`);
      }
      setExit(EXIT.ok);
    });
}

/**
 * Record trust in a project's hooks (all of them, or only `ids`: the others keep what the
 * record said of them). The hook set is loaded as the evaluator loads it, so the digests are the
 * ones the loader will compare.
 */
export async function recordTrust(
  ctx: CliContext,
  locations: Locations,
  runtime: HookRuntimeFactory,
  project: string,
  ids?: readonly string[],
): Promise<{ record: TrustRecord; previous: TrustRecord | undefined; mine: LoadedHook[]; broken: BrokenHook[]; file: string }> {
  const file = await trustRecordPath(locations.dataDir, project);
  const { hookSets } = createHookSets({
    host: ctx.host,
    locations,
    capabilities: runtime.capabilities(locations),
    embedded: runtime.embedded(),
    via: "cli",
  });
  const { snapshot } = await hookSets.forProject(project);
  const mine = snapshot.hooks.filter(
    (hook) => hook.definition.source.origin === "project" && (ids === undefined || ids.includes(hook.definition.id)),
  );
  const broken = snapshot.broken.filter((entry) => entry.origin === "project" && (ids === undefined || ids.includes(entry.id)));
  if (mine.length === 0 && broken.length === 0)
    throw new HookboxError("not_found", `${project} has no hooks of its own (${project}/.hookbox/hooks): nothing to trust`);
  const previous = parseTrustRecord(await ctx.host.fs.readText(file).catch(() => undefined), project);
  const hooks: Record<string, TrustedHook> = ids === undefined ? {} : { ...previous?.hooks };
  for (const hook of mine) hooks[hook.definition.id] = { file: hook.file, digest: hook.digest, grants: trustedGrants(hook) };
  const record: TrustRecord = { v: TRUST_VERSION, project, trusted_at: new Date().toISOString(), set_digest: await setDigest(hooks), hooks };
  await ctx.host.fs.mkdirp(file.slice(0, file.lastIndexOf("/")), 0o700, true);
  await ctx.host.fs.writeTextAtomic(file, `${JSON.stringify(record, null, 2)}\n`, 0o600);
  return { record, previous, mine, broken, file };
}

/** The grants a trusted hook gets: its review lines the operator's rules do not refuse outright. */
function trustedGrants(hook: LoadedHook): string[] {
  return hook.review.lines.filter((line) => line.status !== "refused").map((line) => line.grant);
}
