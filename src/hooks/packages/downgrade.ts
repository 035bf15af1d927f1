import { HookboxError } from "../../core/errors.ts";
import { bundleNameMismatch } from "./bundle.ts";
import { compareVersions } from "./version.ts";

/** A package about to be installed: where it came from, what it holds, and what is installed now. */
export interface VersionCheck {
  /** The bundle's path or URL; undefined for a folder or a repository (they have no name to check). */
  readonly bundle: string | undefined;
  readonly id: string;
  readonly version: string | null;
  readonly installed: string | null | undefined;
  /** The operator asked for an older version (--allow-downgrade). */
  readonly allowDowngrade: boolean;
}

/**
 * What `add` and `update` check before installing, as the fleet does: a bundle holds what its name
 * says, and an older version never replaces a newer one unless the operator asks. An older
 * release may lack the fixes the newer one has; whoever can place a file beside the bundles (or
 * serve them) can offer one, correctly signed.
 */
export function checkVersion(check: VersionCheck): void {
  const name = check.bundle?.slice(check.bundle.lastIndexOf("/") + 1);
  const mismatch = name === undefined ? undefined : bundleNameMismatch(decodeURIComponent(name), check.id, check.version);
  if (mismatch)
    throw new HookboxError(
      "conflict",
      `${check.bundle} is refused: ${mismatch}. A bundle is picked by its name; rename it to what it holds if that is what you want`,
    );
  if (check.installed === null || check.installed === undefined || check.version === null) return;
  if (compareVersions(check.version, check.installed) >= 0 || check.allowDowngrade) return;
  throw new HookboxError(
    "conflict",
    `${check.id} ${check.version}${check.bundle ? ` (${check.bundle})` : ""} is older than the installed ${check.installed}: refusing to downgrade (an older release may lack fixes the installed one has). If you mean it, run again with --allow-downgrade`,
  );
}
