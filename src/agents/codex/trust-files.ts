import { runsHookboxEmitHandler } from "../shared/install/command.ts";
import { sameJson } from "../shared/install/json-value.ts";
import type { AgentTrust, InstallOptions, TrustChange, TrustIO, TrustTarget } from "../shared/install/types.ts";
import { codexHandler, codexUserConfigPath } from "./install.ts";

const WHAT = "Codex's config.toml";

/**
 * The trust code and the diff, loaded when a trust step runs: the agent table is on `hookbox
 * emit`'s path, and these bring a TOML parser, the sandbox's hash and a diff library with them.
 */
async function load() {
  const [trust, { unifiedDiff }] = await Promise.all([import("./trust.ts"), import("../shared/install/diff.ts")]);
  return { ...trust, unifiedDiff };
}

/**
 * Record in Codex's user config that the entries install-agent wrote in `hooksText` are trusted
 * — the step a user otherwise takes in Codex's /hooks. Only handlers that are exactly what
 * install-agent writes for their event are trusted: an entry that merely runs `hookbox emit`
 * among other things (a repository's .codex/hooks.json could hold `hookbox emit X; curl …`) never is.
 */
async function trustCodexEntries(
  io: TrustIO,
  target: TrustTarget,
  hooksText: string,
  options: InstallOptions,
  dryRun: boolean,
): Promise<TrustChange> {
  const { codexTrustEntries, planCodexTrust, unifiedDiff } = await load();
  const file = codexUserConfigPath(target.dirs);
  const entries = await codexTrustEntries(target.file, hooksText, (event, handler) => sameJson(handler, codexHandler(event, options)));
  const existing = await io.readIfPresent(file, WHAT);
  const plan = planCodexTrust(existing, entries, file);
  let backup: string | null = null;
  if (plan.changed && !dryRun) {
    const fs = io.fs;
    if (existing !== undefined) {
      backup = `${file}.hookbox-backup-${new Date().toISOString().replace(/[:.]/g, "-")}`;
      await fs.writeTextAtomic(backup, existing, 0o600);
    } else {
      await fs.mkdirp(file.slice(0, file.lastIndexOf("/")), 0o755);
    }
    await fs.writeTextAtomic(file, plan.text, (await fs.mode(file)) ?? 0o600);
  }
  return { file, changed: plan.changed, summary: plan.summary, diff: plan.changed ? unifiedDiff(file, existing, plan.text) : "", backup };
}

/**
 * Take out of $CODEX_HOME/config.toml the trust recorded for Hookbox's handlers in `hooksText`
 * (the hooks.json about to lose them), as `install-agent --trust` wrote it; the file goes when
 * nothing else is left in it. A backup first, in the data directory.
 */
async function untrustCodexEntries(
  io: TrustIO,
  target: TrustTarget,
  hooksText: string,
  dryRun: boolean,
): Promise<TrustChange & { readonly removed: boolean }> {
  const { codexTrustEntries, planCodexUntrust, unifiedDiff } = await load();
  const file = codexUserConfigPath(target.dirs);
  const entries = await codexTrustEntries(target.file, hooksText, (_event, handler) => runsHookboxEmitHandler(handler));
  const existing = await io.readIfPresent(file, WHAT);
  const plan = planCodexUntrust(existing, entries, file);
  let backup: string | null = null;
  if (plan.changed && !dryRun && existing !== undefined) {
    const fs = io.fs;
    backup = await io.backupInDataDir(file, existing);
    if (plan.empty) await fs.remove(file);
    else await fs.writeTextAtomic(file, plan.text, (await fs.mode(file)) ?? 0o600);
  }
  return {
    file,
    changed: plan.changed,
    summary: plan.summary,
    diff: plan.changed ? unifiedDiff(file, existing, plan.empty ? undefined : plan.text) : "",
    backup,
    removed: plan.changed && plan.empty,
  };
}

/** Codex runs a hook only once its user config records it as trusted (trust.ts): install-agent --trust, uninstall-agent, doctor. */
export const trust: AgentTrust = {
  help: "also record in $CODEX_HOME/config.toml that you trust the entries written, as Codex's /hooks would (Codex skips untrusted hooks without a word)",
  records: "it records, in $CODEX_HOME/config.toml, that you trust Hookbox's entries",
  record: trustCodexEntries,
  remove: untrustCodexEntries,
};
