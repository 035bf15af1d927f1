import { formatDiagnostic } from "../config/diagnostic.ts";
import { inYamlUnits } from "../../core/limits.ts";
import type { HookRegistrationV1, HooksV1 } from "../../core/wire/hooks.ts";
import { isBroken, type RegistryEntry, type RegistrySnapshot } from "./registry.ts";

/** One hook as registered for an event: the shape of `hookbox list --json` (and GET /v1/hooks). */
export function registration(entry: RegistryEntry): HookRegistrationV1 {
  if (isBroken(entry)) {
    return {
      id: entry.id,
      broken: true,
      enabled: entry.enabled,
      priority: entry.priority,
      events: entry.events,
      on_error: entry.onError,
      source: { file: entry.file, origin: entry.origin },
      problems: entry.problems.map(formatDiagnostic),
    };
  }
  const d = entry.definition;
  return {
    id: d.id,
    summary: d.summary,
    enabled: d.enabled,
    priority: d.priority,
    events: d.events,
    match: d.match,
    on_error: d.onError,
    ...(d.mode === "monitor" ? { mode: d.mode } : {}),
    cooldown_seconds: d.cooldownMs / 1000,
    ...(d.background ? { background: d.background } : {}),
    isolation: d.isolation,
    permissions: entry.grants.summary,
    grants: entry.review.lines,
    ...(entry.review.untrusted
      ? { untrusted: { project: entry.review.untrusted.project, hint: "runs without any grant until `hookbox trust` in the project" } }
      : {}),
    limits: inYamlUnits(d.limits),
    effects: d.effects,
    source: d.source,
  };
}

/** Registration JSON grouped by event type, in run order (the seed's register-script shape), broken entries included. */
export function registrationByEvent(snapshot: RegistrySnapshot): Pick<HooksV1, "version" | "hooks" | "disabled" | "broken" | "operator"> {
  const byEvent: Record<string, HookRegistrationV1[]> = {};
  for (const event of snapshot.eventTypes()) byEvent[event] = snapshot.registeredFor(event).map(registration);
  const everywhere = snapshot.allEntries().filter((entry) => isBroken(entry) && entry.events === "all");
  if (everywhere.length > 0) byEvent["*"] = everywhere.map(registration);
  const disabled = [
    ...snapshot.hooks.filter((h) => !h.definition.enabled).map((h) => h.definition.id),
    ...snapshot.broken.filter((b) => !b.enabled).map((b) => b.id),
  ];
  return {
    version: 1,
    hooks: byEvent,
    disabled,
    broken: snapshot.broken.map((entry) => entry.id),
    operator:
      snapshot.operatorStatus.state === "ok"
        ? { state: "ok" }
        : { state: snapshot.operatorStatus.state, problems: snapshot.operatorStatus.problems.map(formatDiagnostic) },
  };
}
