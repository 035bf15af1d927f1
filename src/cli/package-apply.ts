import { createHookSets } from "../decide/compose.ts";
import { HookboxError } from "../core/errors.ts";
import { grantDiff } from "../hooks/packages/consent.ts";
import { checkVersion } from "../hooks/packages/downgrade.ts";
import { installPackage, lockPath, readLock } from "../hooks/packages/install.ts";
import { readTree, treeDigest } from "../hooks/packages/tree.ts";
import { compareVersions } from "../hooks/packages/version.ts";
import { entryId } from "../hooks/registry/registry.ts";
import { describeCandidate, obtainConsent, type Candidate, type ConsentOptions, type PackageSession } from "./package-session.ts";
import { reviewWidth } from "./review-lines.ts";
import { recordTrust } from "./trust.ts";

export interface Applied {
  readonly action: "installed" | "updated" | "repaired" | "unchanged";
  readonly id: string;
  readonly version: string | null;
  readonly previous_version: string | null;
  readonly source: string;
  readonly signer: Candidate["signer"];
  readonly dir: string;
  readonly lock: string;
  readonly grants: Candidate["inspected"]["hook"]["review"]["lines"];
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

/**
 * Install a reviewed package, or update the installed one: the review is printed first, then
 * consent is asked — for every grant on a first install, for the grants it adds on an update (a
 * widening always asks again) — then the files and the lock are written. A bundle that is not
 * what its name says, or an older version over a newer one (unless allowDowngrade), is refused
 * first.
 */
export async function applyCandidate(
  session: PackageSession,
  candidate: Candidate,
  options: ConsentOptions & {
    readonly json?: boolean;
    readonly allowDowngrade?: boolean;
    /** Once consent is given, before any file is written (add --monitor marks the hook in the operator file first). */
    readonly beforeInstall?: (id: string) => Promise<void>;
  },
): Promise<Applied> {
  const { ctx, hooksDir } = session;
  const { inspected, acquired, signer, tree } = candidate;
  const id = inspected.id;
  await refuseConflicts(session, id);
  const lock = await readLock(ctx.host.fs, hooksDir);
  const previous = Object.hasOwn(lock.packages, id) ? lock.packages[id] : undefined;
  checkVersion({
    bundle: acquired.bundle?.where,
    id,
    version: inspected.version,
    installed: previous?.version,
    allowDowngrade: options.allowDowngrade === true,
  });
  const digest = await treeDigest(tree);
  const diff = grantDiff(previous?.grants ?? [], inspected.grants);
  const base = {
    id,
    version: inspected.version,
    previous_version: previous?.version ?? null,
    source: acquired.source,
    signer,
    dir: `${hooksDir}/${id}`,
    lock: lockPath(hooksDir),
    grants: inspected.hook.review.lines,
    added: previous ? diff.added : inspected.grants,
    removed: diff.removed,
  };
  const same = previous !== undefined && previous.integrity === digest.integrity;
  // The same version over an installed copy that was edited: put the files back as they were signed.
  if (same && (await installedIntact(session, id, previous.integrity))) return { action: "unchanged", ...base };
  const report = describeCandidate(candidate, reviewWidth(ctx));
  if (previous) {
    report.push(`  installed now: ${previous.version ?? "(no version)"} from ${previous.source}`);
    if (diff.added.length === 0 && diff.removed.length === 0) report.push("  its grants do not change");
    for (const key of diff.added) report.push(`  + ${key}  (new: needs your consent)`);
    for (const key of diff.removed) report.push(`  - ${key}`);
  }
  ctx.err(`${report.join("\n")}\n`);
  const where = session.project ? `${session.project}/.hookbox/hooks` : hooksDir;
  const question = previous
    ? `Update ${id} to ${inspected.version ?? "this version"}${diff.added.length ? " with the new grants above" : ""}?`
    : `Install ${id} into ${where} with these grants?`;
  await obtainConsent(ctx, question, previous ? diff.added : inspected.grants, options, !previous);
  await options.beforeInstall?.(id);
  await installPackage(ctx.host.fs, hooksDir, id, tree, {
    version: inspected.version,
    source: acquired.source,
    grants: inspected.grants,
    signer,
    onError: inspected.onError,
  });
  // The user just consented to this hook's grants: in a project, that is trusting it there.
  if (session.project) await recordTrust(ctx, session.locations, session.runtime, session.project, [id]);
  return { action: same ? "repaired" : previous ? "updated" : "installed", ...base };
}

async function installedIntact(session: PackageSession, id: string, integrity: string): Promise<boolean> {
  try {
    return (await treeDigest(await readTree(session.ctx.host.fs, `${session.hooksDir}/${id}`))).integrity === integrity;
  } catch {
    return false;
  }
}

/** Another hook with the same id (not this package) would make both duplicates: refuse before writing anything. */
async function refuseConflicts(session: PackageSession, id: string): Promise<void> {
  const { hookSets } = createHookSets({
    host: session.ctx.host,
    locations: session.locations,
    capabilities: session.capabilities,
    embedded: session.runtime.embedded(),
    via: "cli",
  });
  const { snapshot } = await hookSets.forProject(session.project);
  const mine = `${session.hooksDir}/${id}/`;
  const other = [
    ...snapshot.hooks.map((hook) => ({ id: hook.definition.id, file: hook.file })),
    ...snapshot.broken.map((entry) => ({ id: entryId(entry), file: entry.file })),
  ].find((hook) => hook.id === id && !hook.file.startsWith(mine));
  if (other)
    throw new HookboxError(
      "conflict",
      `a hook with the id ${id} is already there (${other.file}): remove it first, or install this package elsewhere`,
    );
}

export function appliedText(applied: Applied): string {
  const version = applied.version ?? "(no version)";
  if (applied.action === "unchanged") return `${applied.id} ${version} is already installed, unchanged (${applied.dir})\n`;
  const older = applied.version !== null && applied.previous_version !== null && compareVersions(applied.version, applied.previous_version) < 0;
  const what =
    applied.action === "installed"
      ? `installed ${applied.id} ${version}`
      : applied.action === "repaired"
        ? `reinstalled ${applied.id} ${version} over an edited copy`
        : `${older ? "downgraded" : "updated"} ${applied.id} from ${applied.previous_version ?? "(no version)"} to ${version}`;
  return `${what} in ${applied.dir} (recorded in ${applied.lock})\n`;
}
