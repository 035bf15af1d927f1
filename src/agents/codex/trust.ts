import { parse as parseToml } from "smol-toml";
import { sha256Hex } from "../../../sandbox/index.ts";
import { HookboxError, errorMessage } from "../../core/errors.ts";
import { parseJsonDocument } from "../shared/install/json-document.ts";
import { isJsonObject } from "../shared/install/json-value.ts";
import type { InstallPlan } from "../shared/install/types.ts";

/**
 * Codex (0.169.0) runs a hook that is not managed by an administrator only when the USER layer
 * of its config — $CODEX_HOME/config.toml — records it as trusted:
 *
 *   [hooks.state."<absolute path of the hooks.json>:<snake_case event>:<group index>:<handler index>"]
 *   trusted_hash = "sha256:<hex>"
 *
 * the hash being sha256 of the compact, key-sorted JSON of `{ event_name, matcher?, hooks: [the
 * handler, normalised] }` (codex-rs/hooks engine/discovery.rs, config_rules.rs; config
 * fingerprint.rs). A hook without it, or with the hash of another command line, is skipped
 * without a word, even by `codex exec`. Codex's /hooks screen is where a user records it; this
 * module computes the same entries, for `doctor` to tell whether that happened and for
 * `install-agent codex --trust`, the user's explicit act, to record them for Hookbox's entries.
 */

/** One of Hookbox's handlers in a hooks.json, and the trust Codex needs to run it. */
export interface CodexTrustEntry {
  /** The `hooks.state` key. */
  readonly key: string;
  /** "sha256:<hex>" */
  readonly hash: string;
  readonly event: string;
  readonly command: string;
}

/** Events whose matcher Codex ignores, and so hashes without one. */
const MATCHERLESS: ReadonlySet<string> = new Set(["UserPromptSubmit", "Stop"]);

export function codexEventLabel(event: string): string {
  return event.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/** Keys sorted at every level, no white space: serde_json's output for Codex's canonical form. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * A command handler as Codex hashes it: the timeout always present (600 s unless set; SessionEnd
 * 1 s, at most 3), `async` always present, unset options absent.
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

/** The trusted_hash Codex records for one command handler of `event` in a group with `matcher`. */
export async function codexTrustHash(event: string, matcher: unknown, handler: Readonly<Record<string, unknown>>): Promise<string> {
  const identity = {
    event_name: codexEventLabel(event),
    matcher: MATCHERLESS.has(event) || typeof matcher !== "string" ? undefined : matcher,
    hooks: [normalisedHandler(event, handler)],
  };
  return `sha256:${await sha256Hex(canonicalJson(identity))}`;
}

/**
 * The trust entries for the command handlers of a hooks.json (found at `sourcePath`, absolute,
 * as Codex names it) that `select` picks, at the positions they hold in the file.
 */
export async function codexTrustEntries(
  sourcePath: string,
  hooksText: string,
  select: (event: string, handler: Readonly<Record<string, unknown>>) => boolean,
): Promise<CodexTrustEntry[]> {
  const hooks = parseJsonDocument(hooksText, sourcePath).root.hooks;
  if (!isJsonObject(hooks)) return [];
  const entries: CodexTrustEntry[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const [groupIndex, group] of groups.entries()) {
      if (!isJsonObject(group) || !Array.isArray(group.hooks)) continue;
      for (const [handlerIndex, handler] of group.hooks.entries()) {
        if (!isJsonObject(handler) || handler.type !== "command" || typeof handler.command !== "string" || !select(event, handler)) continue;
        const key = `${sourcePath}:${codexEventLabel(event)}:${groupIndex}:${handlerIndex}`;
        entries.push({ key, hash: await codexTrustHash(event, group.matcher, handler), event, command: handler.command });
      }
    }
  }
  return entries;
}

/** What config.toml records for each hooks.state key. A file that is not TOML is a config_invalid error naming it. */
export function recordedTrust(configText: string | undefined, file: string): ReadonlyMap<string, string> {
  if (configText === undefined || configText.trim() === "") return new Map();
  let config: unknown;
  try {
    config = parseToml(configText);
  } catch (error) {
    throw new HookboxError(
      "config_invalid",
      `${file} is not valid TOML (${errorMessage(error).split("\n")[0]}); Codex would not start with it either`,
    );
  }
  const state = (config as { hooks?: { state?: unknown } }).hooks?.state;
  const recorded = new Map<string, string>();
  if (state === null || typeof state !== "object") return recorded;
  for (const [key, value] of Object.entries(state as Record<string, unknown>)) {
    const hash = (value as { trusted_hash?: unknown } | null)?.trusted_hash;
    if (typeof hash === "string") recorded.set(key, hash);
  }
  return recorded;
}

/** The entries config.toml does not record as trusted (missing, or the hash of another command line). */
export function untrustedEntries(entries: readonly CodexTrustEntry[], recorded: ReadonlyMap<string, string>): CodexTrustEntry[] {
  return entries.filter((entry) => recorded.get(entry.key) !== entry.hash);
}

function tableHeader(key: string): string {
  return `[hooks.state.${JSON.stringify(key)}]`;
}

/**
 * config.toml with `entries` recorded as trusted, edited as text so the user's comments and
 * layout stay: an existing table for the key gets its trusted_hash replaced, a missing one is
 * appended. The result is parsed back, and must hold exactly the hashes asked for and
 * everything else as before; a file laid out so that this cannot be done (hooks.state written
 * as inline tables, say) is refused, with the lines to add by hand.
 */
export function planCodexTrust(configText: string | undefined, entries: readonly CodexTrustEntry[], file: string): InstallPlan {
  const before = recordedTrust(configText, file);
  const missing = untrustedEntries(entries, before);
  if (missing.length === 0) return { text: configText ?? "", changed: false, summary: entries.map((entry) => `= ${entry.event}: already trusted`) };
  let text = configText ?? "";
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  for (const entry of missing) {
    const header = tableHeader(entry.key);
    const lines = text.split(/\r?\n/);
    const at = lines.findIndex((line) => line.trim() === header);
    if (at >= 0) {
      const end = lines.findIndex((line, i) => i > at && /^\s*\[/.test(line));
      const hashLine = lines.slice(at + 1, end < 0 ? undefined : end).findIndex((line) => /^\s*trusted_hash\s*=/.test(line));
      if (hashLine >= 0) lines[at + 1 + hashLine] = `trusted_hash = ${JSON.stringify(entry.hash)}`;
      else lines.splice(at + 1, 0, `trusted_hash = ${JSON.stringify(entry.hash)}`);
      text = lines.join(eol);
    } else {
      const separator = text === "" ? "" : text.endsWith("\n") ? eol : `${eol}${eol}`;
      text = `${text}${separator}${header}${eol}trusted_hash = ${JSON.stringify(entry.hash)}${eol}`;
    }
  }
  const manual = missing.map((entry) => `${tableHeader(entry.key)}\ntrusted_hash = ${JSON.stringify(entry.hash)}`).join("\n");
  let after: ReadonlyMap<string, string>;
  try {
    after = recordedTrust(text, file);
  } catch {
    after = new Map();
  }
  const asked = new Map(entries.map((entry) => [entry.key, entry.hash]));
  const intact =
    [...before].every(([key, hash]) => after.get(key) === (asked.get(key) ?? hash)) && entries.every((entry) => after.get(entry.key) === entry.hash);
  if (!intact) {
    throw new HookboxError(
      "config_invalid",
      `${file}: Hookbox cannot add the trust entries to this file without rewriting what is there (hooks.state is laid out in a way it does not edit). Nothing was changed. Add these lines yourself, or trust the hooks in Codex's /hooks:\n${manual}`,
    );
  }
  return {
    text,
    changed: true,
    summary: entries.map((entry) =>
      missing.includes(entry) ? `+ trusted ${entry.event}: \`${entry.command}\`` : `= ${entry.event}: already trusted`,
    ),
  };
}

/**
 * config.toml without the trust `install-agent --trust` recorded for `entries` (Hookbox's handlers,
 * about to be removed from their hooks.json): each `[hooks.state."<key>"]` table recording exactly
 * that hash loses its trusted_hash line, and the table goes when nothing else is in it. Trust the
 * user recorded for anything else, and a hash Codex's /hooks wrote for another command line, stay.
 * Edited as text, checked by parsing back; a layout it cannot edit is refused with what to remove.
 * `empty` says the file holds nothing but white space afterwards.
 */
export function planCodexUntrust(
  configText: string | undefined,
  entries: readonly CodexTrustEntry[],
  file: string,
): InstallPlan & { readonly empty: boolean } {
  const before = recordedTrust(configText, file);
  const ours = entries.filter((entry) => before.get(entry.key) === entry.hash);
  if (configText === undefined || ours.length === 0) return { text: configText ?? "", changed: false, summary: [], empty: false };
  const eol = configText.includes("\r\n") ? "\r\n" : "\n";
  let lines = configText.split(/\r?\n/);
  for (const entry of ours) {
    const at = lines.findIndex((line) => line.trim() === tableHeader(entry.key));
    if (at < 0) continue;
    const next = lines.findIndex((line, i) => i > at && /^\s*\[/.test(line));
    const end = next < 0 ? lines.length : next;
    const body = lines.slice(at + 1, end).filter((line) => !/^\s*trusted_hash\s*=/.test(line));
    const onlyBlank = body.every((line) => line.trim() === "");
    lines = [...lines.slice(0, onlyBlank ? at : at + 1), ...(onlyBlank ? [] : body), ...lines.slice(end)];
  }
  let text = lines.join(eol).replace(/(\r?\n){3,}/g, `${eol}${eol}`);
  if (text.trim() === "") text = "";
  let after: ReadonlyMap<string, string>;
  try {
    after = recordedTrust(text, file);
  } catch {
    after = new Map([["", ""]]);
  }
  const gone = new Set(ours.map((entry) => entry.key));
  const intact =
    [...before].every(([key, hash]) => (gone.has(key) ? !after.has(key) : after.get(key) === hash)) && after.size === before.size - gone.size;
  if (!intact) {
    throw new HookboxError(
      "config_invalid",
      `${file}: Hookbox cannot take its trust entries out of this file without rewriting what is there. Nothing was changed. Remove these tables yourself:\n${ours.map((entry) => tableHeader(entry.key)).join("\n")}`,
    );
  }
  return { text, changed: true, summary: ours.map((entry) => `- trust of ${entry.event}: \`${entry.command}\``), empty: text === "" };
}
