import { noun, plural } from "../../core/text/plural.ts";
import { failed as fail, passed as pass, type AgentCheck, type AgentDoctor, type DoctorIO, type DoctorTarget } from "../shared/doctor.ts";
import { runsHookboxEmitHandler } from "../shared/install/command.ts";
import { codexUserConfigPath } from "./install.ts";
import { codexTrustEntries, recordedTrust, untrustedEntries } from "./trust.ts";

/**
 * Whether Codex will run Hookbox's entries in `file` at all: Codex skips a hook whose trust is
 * not recorded in $CODEX_HOME/config.toml — no message, no event, a zero exit — so an
 * installed but untrusted Hookbox is no guard. Doctor never records the trust itself: that is
 * the user's act (Codex's /hooks, or `install-agent codex --trust`).
 */
async function codexTrustCheck(io: DoctorIO, { scope, file, text, dirs }: DoctorTarget): Promise<AgentCheck> {
  const name = `codex trust (${scope})`;
  const config = codexUserConfigPath(dirs);
  const entries = await codexTrustEntries(file, text, (_event, handler) => runsHookboxEmitHandler(handler));
  let recorded;
  try {
    recorded = recordedTrust((await io.fs.exists(config)) ? await io.fs.readText(config) : undefined, config);
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

export const doctor: AgentDoctor = {
  /** What doctor sends through Codex's PreToolUse entry: a harmless shell command. */
  probe: {
    event: "PreToolUse",
    payload: (p, sessionId) => ({
      session_id: sessionId,
      turn_id: "doctor",
      cwd: p,
      hook_event_name: "PreToolUse",
      model: "doctor",
      tool_name: "Bash",
      tool_input: { command: "true" },
    }),
  },
  checks: async (io, target) => [await codexTrustCheck(io, target)],
};
