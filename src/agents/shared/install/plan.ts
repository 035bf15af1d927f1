import { HookboxError } from "../../../core/errors.ts";
import { parseJsonDocument, serializeNewDocument, type JsonDocument } from "./json-document.ts";
import { rewriteJson } from "./json-edit.ts";
import type { InstallOptions, InstallPlan } from "./types.ts";

/** What an agent's own parser accepts in its config file beyond JSON (undefined: not known). */
export interface JsonDialect {
  readonly comments: boolean | undefined;
  readonly trailingCommas: boolean | undefined;
  /** What the agent does with a file it cannot parse, for the note that says so. */
  readonly whenInvalid: string;
}

type Apply = (root: Record<string, unknown>) => { readonly summary: readonly string[]; readonly mutated: boolean };

/** Notes on syntax the file has and the agent refuses: Hookbox keeps what it finds, but says so. */
function syntaxNotes(document: JsonDocument, dialect: JsonDialect): string[] {
  const refused = [
    document.syntax.comments && dialect.comments === false && "comments",
    document.syntax.trailingCommas && dialect.trailingCommas === false && "trailing commas",
  ].filter((what): what is string => typeof what === "string");
  return refused.length === 0
    ? []
    : [`! this file has ${refused.join(" and ")}, which the agent does not accept: ${dialect.whenInvalid} (Hookbox kept them; remove them)`];
}

/**
 * Parse, change, edit in place. The existing text comes back untouched when nothing changes, so
 * a second run is a no-op; otherwise only what changed is edited (json-edit.ts), so comments and
 * the layout of everything else are kept. With `creates`, a missing or blank file is created.
 */
export function planJsonConfig(
  existingText: string | undefined,
  file: string,
  dialect: JsonDialect,
  apply: Apply,
  { creates }: { readonly creates: boolean },
): InstallPlan {
  const document = parseJsonDocument(existingText, file);
  const before = structuredClone(document.root);
  const { summary, mutated } = apply(document.root);
  const notes = syntaxNotes(document, dialect);
  if (document.body === undefined) {
    if (!creates) return { text: existingText ?? "", changed: false, summary: [...summary, ...notes] };
    return { text: serializeNewDocument(document.root), changed: true, summary: [`+ create ${file}`, ...summary] };
  }
  if (!mutated) return { text: existingText as string, changed: false, summary: [...summary, ...notes] };
  return {
    text: `${document.bom}${rewriteJson(document.body, before, document.root, document.layout)}`,
    changed: true,
    summary: [...summary, ...notes],
  };
}

/** An agent's events Hookbox installs, by the agent's name, with the native event each decodes to. */
export type AgentEvents = Readonly<Record<string, string>>;

/** The events asked for (agent or canonical names) as the agent's names, or the defaults (every known one unless given). */
export function selectEvents(agent: string, known: AgentEvents, options: InstallOptions, defaults: readonly string[] = Object.keys(known)): string[] {
  if (options.events === undefined) return [...defaults];
  if (options.events.length === 0) throw new HookboxError("usage", "no events to install: leave --events out for the default set");
  const byNative = new Map(Object.entries(known).map(([agentName, nativeName]) => [nativeName, agentName]));
  const selected = options.events.map((name) => {
    if (Object.hasOwn(known, name)) return name;
    const agentName = byNative.get(name);
    if (agentName !== undefined) return agentName;
    throw new HookboxError("usage", `unknown ${agent} event "${name}": use one of ${Object.keys(known).join(", ")}`);
  });
  return [...new Set(selected)];
}

/** The timeout written into an agent's entry for this native event (one table for install-agent and emit). */
export { agentHookTimeoutSeconds as timeoutSeconds } from "../../../core/events/hook-timeouts.ts";
