import { codexUserConfigPath } from "../../agents/codex/install.ts";
import { codexTrustEntries, recordedTrust, untrustedEntries } from "../../agents/codex/trust.ts";
import { runsHookboxEmitHandler } from "../../agents/shared/install/command.ts";
import type { InstallScope } from "../../agents/installers.ts";
import type { CliContext } from "../context.ts";
import { fail, pass, type DoctorCheck } from "./check.ts";
import { noun, plural } from "../../core/text/plural.ts";

/**
 * Whether Codex will run Hookbox's entries in `file` at all: Codex skips a hook whose trust is
 * not recorded in $CODEX_HOME/config.toml — no message, no event, a zero exit — so an
 * installed but untrusted Hookbox is no guard. Doctor never records the trust itself: that is
 * the user's act (Codex's /hooks, or `install-agent codex --trust`).
 */
export async function codexTrustCheck(ctx: CliContext, scope: InstallScope, file: string, text: string, project: string): Promise<DoctorCheck> {
  const name = `codex trust (${scope})`;
  const config = codexUserConfigPath({ home: ctx.host.homeDir(), project, env: ctx.host.env });
  const entries = await codexTrustEntries(file, text, (_event, handler) => runsHookboxEmitHandler(handler));
  let recorded;
  try {
    recorded = recordedTrust((await ctx.host.fs.exists(config)) ? await ctx.host.fs.readText(config) : undefined, config);
  } catch (error) {
    return fail(name, (error as Error).message);
  }
  const untrusted = untrustedEntries(entries, recorded);
  if (untrusted.length === 0)
    return pass(
      name,
      `${config} trusts ${entries.length === 1 ? "the one" : `all ${entries.length}`} of Hookbox's ${noun(entries.length, "entry")} in ${file}`,
    );
  const events = untrusted.map((entry) => entry.event).join(", ");
  return fail(
    name,
    `Codex has not trusted ${untrusted.length} of Hookbox's ${plural(entries.length, "entry")} in ${file} (${events}): it skips them without a word, so nothing is guarded. ` +
      `Review and trust them in Codex's /hooks, or run hookbox install-agent codex${scope === "project" ? "" : ` --${scope}`} --trust once you have read them`,
  );
}
