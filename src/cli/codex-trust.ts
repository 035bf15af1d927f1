import { unifiedDiff } from "../agents/shared/install/diff.ts";
import { codexHandler, codexUserConfigPath } from "../agents/codex/install.ts";
import { codexTrustEntries, planCodexTrust, planCodexUntrust } from "../agents/codex/trust.ts";
import { sameJson } from "../agents/shared/install/json-value.ts";
import { runsHookboxEmitHandler } from "../agents/shared/install/command.ts";
import type { InstallOptions } from "../agents/installers.ts";
import { readIfPresent, writeBackup, type AgentSettingsTarget } from "./agent-settings.ts";
import type { CliContext } from "./context.ts";

/** What `install-agent codex --trust` did to $CODEX_HOME/config.toml: part of install-agent's --json output. */
export interface TrustChange {
  readonly file: string;
  readonly changed: boolean;
  readonly summary: readonly string[];
  readonly diff: string;
  readonly backup: string | null;
}

/**
 * Record in Codex's user config that the entries install-agent wrote in `hooksText` are trusted
 * — the step a user otherwise takes in Codex's /hooks. Only handlers that are exactly what
 * install-agent writes for their event are trusted: an entry that merely runs `hookbox emit`
 * among other things (a repository's .codex/hooks.json could hold `hookbox emit X; curl …`) never is.
 */
export async function trustCodexEntries(
  ctx: CliContext,
  target: AgentSettingsTarget,
  hooksText: string,
  options: InstallOptions,
  dryRun: boolean,
): Promise<TrustChange> {
  const file = codexUserConfigPath({ home: ctx.host.homeDir(), project: target.project, env: ctx.host.env });
  const entries = await codexTrustEntries(target.file, hooksText, (event, handler) => sameJson(handler, codexHandler(event, options)));
  const existing = await readIfPresent(ctx, file, "Codex's config.toml");
  const plan = planCodexTrust(existing, entries, file);
  let backup: string | null = null;
  if (plan.changed && !dryRun) {
    const fs = ctx.host.fs;
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
export async function untrustCodexEntries(
  ctx: CliContext,
  target: AgentSettingsTarget,
  hooksText: string,
  dryRun: boolean,
): Promise<TrustChange & { readonly removed: boolean }> {
  const file = codexUserConfigPath({ home: ctx.host.homeDir(), project: target.project, env: ctx.host.env });
  const entries = await codexTrustEntries(target.file, hooksText, (_event, handler) => runsHookboxEmitHandler(handler));
  const existing = await readIfPresent(ctx, file, "Codex's config.toml");
  const plan = planCodexUntrust(existing, entries, file);
  let backup: string | null = null;
  if (plan.changed && !dryRun && existing !== undefined) {
    const fs = ctx.host.fs;
    backup = await writeBackup(ctx, { ...target, file }, existing, { inDataDir: true });
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
