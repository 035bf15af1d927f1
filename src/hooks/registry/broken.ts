import { parseDocument } from "yaml";
import type { Diagnostic } from "../config/diagnostic.ts";
import type { HookOrigin } from "../../core/origin.ts";
import { HOOK_ID, type MatchConfig, type OperatorFile } from "../config/schema.ts";
import { checkEventName } from "../../core/events/names.ts";
import type { BrokenHook } from "./broken-entry.ts";
import { compileMatcher, type Matcher } from "./matcher.ts";

export { isBroken, type BrokenHook } from "./broken-entry.ts";

const DEFAULT_PRIORITY = 100;
const TRIGGER_KEYS = ["every", "interval_seconds", "cron", "watch", "trigger"];

/** What a hook file says of itself, read as leniently as possible (the strict schema refused it). */
export function brokenHook(
  file: string,
  origin: HookOrigin,
  text: string | undefined,
  problems: readonly Diagnostic[],
  operator: OperatorFile,
  knownId?: string,
): BrokenHook {
  const raw = lenientObject(text);
  const id = knownId ?? (typeof raw.id === "string" && HOOK_ID.test(raw.id) ? raw.id : declaredId(text)) ?? `broken:${file}`;
  const override = operator.hooks[id] ?? {};
  const events = readEvents(raw);
  const onError = override.on_error ?? (raw.on_error === "deny" || raw.on_error === "continue" ? raw.on_error : "continue");
  const priority = override.priority ?? (Number.isInteger(raw.priority) ? (raw.priority as number) : DEFAULT_PRIORITY);
  const enabled = override.enabled ?? (raw.enabled === false ? false : true);
  return { broken: true, id, file, origin, events, matcher: readMatcher(raw.match), onError, priority, enabled, problems };
}

/** A YAML document as a plain object, read as leniently as possible; {} when it is not one. */
export function lenientObject(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  try {
    const value = parseDocument(text, { uniqueKeys: false }).toJS({ maxAliasCount: 100 }) as unknown;
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Events as declared; one unreadable name makes them all unknown (a misspelt event must not
 * narrow where the failure applies). A hook that names no event but a trigger of its own (a
 * schedule, a watch) never answered an agent's event: it is registered for none.
 */
function readEvents(raw: Record<string, unknown>): readonly string[] | "all" {
  const seedTrigger = raw.trigger !== null && typeof raw.trigger === "object" ? (raw.trigger as Record<string, unknown>) : {};
  const eventType = raw.event_type ?? seedTrigger.event_type;
  const names = Array.isArray(raw.events) ? raw.events : typeof eventType === "string" ? [eventType] : undefined;
  if (names === undefined && raw.events === undefined && eventType === undefined && TRIGGER_KEYS.some((key) => raw[key] !== undefined)) return [];
  if (!names || names.length === 0) return "all";
  const canonical: string[] = [];
  for (const name of names) {
    if (typeof name !== "string") return "all";
    const check = checkEventName(name);
    if (!check.ok) return "all";
    canonical.push(check.name);
  }
  return [...new Set(canonical)];
}

function readMatcher(match: unknown): Matcher | undefined {
  if (match === undefined || match === null || typeof match !== "object" || Array.isArray(match)) return undefined;
  try {
    const built = compileMatcher(match as MatchConfig);
    return built.ok ? built.matcher : undefined;
  } catch {
    return undefined;
  }
}

/** The id line of a file whose YAML does not even parse. */
function declaredId(text: string | undefined): string | undefined {
  return text === undefined ? undefined : /^id:\s*["']?([a-z0-9][a-z0-9-]*)["']?\s*$/m.exec(text)?.[1];
}
