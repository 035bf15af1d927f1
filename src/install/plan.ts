import { HookboxError } from "../errors.ts";
import { parseJsonDocument, serializeJsonDocument } from "./json-document.ts";
import type { InstallOptions, InstallPlan } from "./types.ts";

/**
 * Parse, merge, write back. The existing text comes back untouched when nothing changes, so a
 * second run is a no-op even for a file laid out differently from how Hookbox would write it.
 */
export function planJsonConfig(existingText: string | undefined, file: string, apply: (root: Record<string, unknown>) => { readonly summary: readonly string[]; readonly mutated: boolean }): InstallPlan {
  const document = parseJsonDocument(existingText, file);
  const { summary, mutated } = apply(document.root);
  const creating = existingText === undefined || existingText.trim() === "";
  const changed = mutated || creating;
  return { text: changed ? serializeJsonDocument(document) : (existingText as string), changed, summary: creating ? [`+ create ${file}`, ...summary] : summary };
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

/**
 * How long an agent waits for `hookbox emit` before it gives up (and fails open). Tool and
 * permission events may hold for a hook's approval prompt (DESIGN §5), so they get longest;
 * SessionEnd runs while the agent exits (Claude shares a 1.5 s budget unless told, research §1.6).
 */
export function timeoutSeconds(nativeEvent: string): number {
  if (nativeEvent === "PreToolUse" || nativeEvent === "PermissionRequest") return 120;
  if (nativeEvent === "SessionEnd") return 10;
  return 30;
}
