import type { Command } from "commander";
import { HookboxError } from "../core/errors.ts";
import { acquire, type Acquired } from "../hooks/packages/acquire.ts";
import { parseBundleFileName } from "../hooks/packages/bundle.ts";
import { readLock } from "../hooks/packages/install.ts";
import type { LockEntry } from "../hooks/packages/lock.ts";
import { parseSource, sourceFromLock, type PackageSource } from "../hooks/packages/source.ts";
import { compareVersions } from "../hooks/packages/version.ts";
import { dirname } from "../core/text/posix-path.ts";
import { packageOptions, type PackageCommandOptions } from "./add.ts";
import type { CliContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";
import { appliedText, applyCandidate, type Applied } from "./package-apply.ts";
import { candidateOf, openSession, type PackageSession } from "./package-session.ts";
import type { HookRuntimeFactory } from "./runtime-factory.ts";

/**
 * `hookbox update [id]`: fetch each package again from where it came (a bundle's directory is a
 * mirror: the newest `<id>-<version>.tar.gz` there), show what changes, and ask again for any
 * grant the new version adds. The newest is picked by its name: what it holds must be what the
 * name says, and never older than what is installed (unless --allow-downgrade).
 */
export function registerUpdate(program: Command, ctx: CliContext, setExit: (code: number) => void, runtime: HookRuntimeFactory): void {
  packageOptions(
    program
      .command("update")
      .description("Update installed hook packages from their sources; a version that asks for more grants needs your consent again"),
  )
    .argument("[id]", "one package (default: every package in hookbox.lock)")
    .option("--from <source>", "update from this source instead of the recorded one (a newer bundle, another folder)")
    .action(async (id: string | undefined, options: PackageCommandOptions & { from?: string }) => {
      const session = await openSession(ctx, runtime, options);
      const lock = await readLock(ctx.host.fs, session.hooksDir);
      const ids = id === undefined ? Object.keys(lock.packages).sort() : [id];
      if (id !== undefined && !Object.hasOwn(lock.packages, id))
        throw new HookboxError(
          "not_found",
          `no package ${id} is installed in ${session.hooksDir} (installed: ${Object.keys(lock.packages).join(", ") || "none"})`,
        );
      if (options.from && ids.length !== 1) throw new HookboxError("usage", "--from goes with one package id");
      const results: (Applied | { id: string; skipped: string })[] = [];
      for (const each of ids) {
        const entry = lock.packages[each] as LockEntry;
        const source = options.from ? parseSource(options.from, ctx.host.cwd()) : sourceFromLock(entry.source);
        if (!source) {
          results.push({
            id: each,
            skipped: `installed from ${entry.source}, which update does not fetch from (import again, or the daemon keeps fleet packages current)`,
          });
          continue;
        }
        const acquired = await acquireNewest(session, source, each, entry, options.from !== undefined);
        if (!acquired) {
          results.push({ id: each, skipped: `up to date (${entry.version ?? "no version"})` });
          continue;
        }
        const candidate = await candidateOf(session, acquired, options.key);
        if (candidate.inspected.id !== each)
          throw new HookboxError("conflict", `${acquired.source} holds the hook ${candidate.inspected.id}, not ${each}`);
        results.push(await applyCandidate(session, candidate, options));
      }
      if (options.json) await ctx.out(`${JSON.stringify(results, null, 2)}\n`);
      else
        await ctx.out(
          results.map((result) => ("skipped" in result ? `${result.id}: ${result.skipped}\n` : appliedText(result))).join("") ||
            "no packages installed\n",
        );
      setExit(EXIT.ok);
    });
}

/** The package at its source, or undefined when the source has nothing newer than what is installed. */
async function acquireNewest(
  session: PackageSession,
  source: PackageSource,
  id: string,
  entry: LockEntry,
  explicit: boolean,
): Promise<Acquired | undefined> {
  if (source.kind === "bundle" && !explicit) {
    // A directory of bundles is a mirror: the newest version of this package there.
    const dir = dirname(source.path);
    const names = (await session.ctx.host.fs.listDir(dir).catch(() => []))
      .map((e) => ({ name: e.name, parsed: parseBundleFileName(e.name) }))
      .filter((e) => e.parsed?.id === id);
    const newest = names.sort((a, b) => compareVersions(b.parsed?.version ?? "0", a.parsed?.version ?? "0"))[0];
    if (newest?.parsed && entry.version !== null && compareVersions(newest.parsed.version, entry.version) <= 0) return undefined;
    if (newest) return acquire({ kind: "bundle", path: `${dir}/${newest.name}` }, session.deps);
  }
  return acquire(source, session.deps);
}
