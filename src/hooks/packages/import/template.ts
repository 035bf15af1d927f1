import { checkEventName } from "../../../core/events/names.ts";
import { kebab, shellRun, type ImportedHook, type ImportPlan, isObject, type Json } from "../../../agents/importers.ts";

/** The template's match keys Hookbox expresses; the others are reported, not silently dropped. */
const KNOWN_MATCH = new Set(["ability_scope", "only_if_changed_paths", "min_duration_ms"]);

/**
 * The repository hooks template's YAML registry (`.system/hooks/*.yaml`): `id` (snake_case),
 * `event_type`, `enabled`, `summary`, `match`, `handler: {kind: script, command}`, `effects` (a
 * list of mappings, descriptive). Its handlers read the event context on stdin and answer JSON
 * (messages_to_user, suggested_abilities, logs …); a failure is non-fatal unless `blocking: true`.
 */
export function importTemplate(files: readonly { readonly file: string; readonly value: unknown }[]): ImportPlan {
  const hooks: ImportedHook[] = [];
  const warnings: string[] = [];
  for (const { file, value } of files) {
    if (!isObject(value)) {
      warnings.push(`${file}: not a hook definition (a YAML mapping): skipped`);
      continue;
    }
    const handler = isObject(value.handler) ? value.handler : undefined;
    if (typeof value.id !== "string" || typeof value.event_type !== "string" || handler?.kind !== "script" || typeof handler.command !== "string") {
      warnings.push(`${file}: needs id, event_type and handler: {kind: script, command}: skipped`);
      continue;
    }
    const event = checkEventName(value.event_type);
    if (!event.ok) {
      warnings.push(`${file}: ${event.message}: skipped`);
      continue;
    }
    const match: Json = isObject(value.match) ? value.match : {};
    for (const key of Object.keys(match))
      if (!KNOWN_MATCH.has(key))
        warnings.push(`${file}: match.${key} has no Hookbox equivalent: the hook runs on every ${value.event_type}, its script still sees the event`);
    const scope = typeof match.ability_scope === "string" && match.ability_scope !== "*" ? match.ability_scope : undefined;
    const paths = Array.isArray(match.only_if_changed_paths)
      ? match.only_if_changed_paths.filter((p): p is string => typeof p === "string")
      : undefined;
    const minDuration =
      typeof match.min_duration_ms === "number" && Number.isInteger(match.min_duration_ms) && match.min_duration_ms > 0
        ? match.min_duration_ms
        : undefined;
    hooks.push({
      id: kebab(value.id),
      dialect: "template",
      agentEvent: value.event_type,
      event: event.name,
      run: shellRun(handler.command),
      command: handler.command,
      timeoutMs: typeof value.timeout_ms === "number" ? value.timeout_ms : 60_000,
      // The template's own match keys, which Hookbox reads as the template means them (docs/matching.md).
      match: {
        ...(scope ? { ability_scope: scope } : {}),
        ...(paths?.length ? { only_if_changed_paths: paths } : {}),
        ...(minDuration !== undefined ? { min_duration_ms: minDuration } : {}),
      },
      where: file,
      summary: typeof value.summary === "string" ? value.summary.trim().slice(0, 500) : `template hook ${value.id}`,
      enabled: value.enabled !== false,
      onError: value.blocking === true ? "deny" : "continue",
      effects: Array.isArray(value.effects) ? value.effects.map(effectText) : [],
      injectContext: false,
    });
  }
  return { dialect: "template", hooks, warnings };
}

/** `- append_to: .system/logs/tool_call.md` → "append_to: .system/logs/tool_call.md". */
function effectText(effect: unknown): string {
  if (typeof effect === "string") return effect.slice(0, 500);
  if (isObject(effect))
    return Object.entries(effect)
      .map(([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`)
      .join("; ")
      .slice(0, 500);
  return JSON.stringify(effect).slice(0, 500);
}
