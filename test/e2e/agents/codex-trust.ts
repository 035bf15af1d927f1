// What Codex records when a user trusts a hook in the TUI's /hooks (Codex 0.169.0), written here
// without the TUI. Codex runs a non-managed hook only when the user layer of its config
// ($CODEX_HOME/config.toml, or a `-c` flag) holds, for that hook,
//
//   [hooks.state."<source file>:<event_label>:<group index>:<handler index>"]
//   trusted_hash = "sha256:<hex>"
//
// where <source file> is the absolute path of the hooks.json (or config.toml) declaring it,
// <event_label> is the snake_case event (pre_tool_use, session_end …), and the hash is sha256 of
// the compact, key-sorted JSON of { event_name: <label>, matcher?, hooks: [<the one handler,
// normalised>] }. A missing or different hash and the hook is skipped without a word, even by
// `codex exec` (codex-rs/hooks: engine/discovery.rs, config_rules.rs; config/src/fingerprint.rs).
import { createHash } from "node:crypto";

/** The hooks.json shape Codex reads (Claude's, grouped by event). */
export type CodexHooksFile = {
  readonly hooks: Readonly<Record<string, ReadonlyArray<{ readonly matcher?: string; readonly hooks: ReadonlyArray<Readonly<Record<string, unknown>>> }>>>;
};

/** Events whose matcher Codex ignores (it hashes them without one). */
const MATCHERLESS: ReadonlySet<string> = new Set(["UserPromptSubmit", "Stop"]);

function eventLabel(event: string): string {
  return event.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/** Keys sorted at every level, no whitespace: serde_json's output for Codex's canonical form. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * A command handler as Codex hashes it: timeout always present (600 s unless set; SessionEnd 1 s,
 * at most 3), async always present, commandWindows dropped, unset options absent.
 */
function normalisedHandler(event: string, handler: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const given = typeof handler.timeout === "number" ? handler.timeout : typeof handler.timeoutSec === "number" ? handler.timeoutSec : undefined;
  const timeout = event === "SessionEnd" ? Math.min(Math.max(given ?? 1, 1), 3) : Math.max(given ?? 600, 1);
  return {
    type: "command",
    command: handler.command,
    timeout,
    async: handler.async === true,
    statusMessage: typeof handler.statusMessage === "string" ? handler.statusMessage : undefined,
  };
}

/** The `hooks.state` entries that mark every command hook of `file` (found at `sourcePath`) as trusted. */
export function codexTrustEntries(sourcePath: string, file: CodexHooksFile): Record<string, { trusted_hash: string }> {
  const entries: Record<string, { trusted_hash: string }> = {};
  for (const [event, groups] of Object.entries(file.hooks)) {
    const label = eventLabel(event);
    groups.forEach((group, groupIndex) => {
      group.hooks.forEach((handler, handlerIndex) => {
        if (handler.type !== "command") return;
        const matcher = MATCHERLESS.has(event) ? undefined : group.matcher;
        const identity = { event_name: label, matcher, hooks: [normalisedHandler(event, handler)] };
        const hash = `sha256:${createHash("sha256").update(canonicalJson(identity)).digest("hex")}`;
        entries[`${sourcePath}:${label}:${groupIndex}:${handlerIndex}`] = { trusted_hash: hash };
      });
    });
  }
  return entries;
}

/** The same entries as config.toml text. */
export function codexTrustToml(sourcePath: string, file: CodexHooksFile): string {
  return Object.entries(codexTrustEntries(sourcePath, file))
    .map(([key, state]) => `[hooks.state.${JSON.stringify(key)}]\ntrusted_hash = ${JSON.stringify(state.trusted_hash)}\n`)
    .join("\n");
}
