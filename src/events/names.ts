import { closest } from "../text/suggest.ts";

/** Canonical event names (Claude Code's) and the documented aliases from the seed engine. */
export const CANONICAL_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "Notification",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "PostCompact",
  "SessionStart",
  "SessionEnd",
  "PermissionRequest",
] as const;

export type CanonicalEvent = (typeof CANONICAL_EVENTS)[number];

/** Seed-engine names, accepted anywhere an event name is (YAML, URLs) and normalised. */
export const EVENT_ALIASES: Readonly<Record<string, CanonicalEvent>> = {
  PreAbilityCall: "PreToolUse",
  PostAbilityCall: "PostToolUse",
  SessionStop: "Stop",
};

/** Custom events are dotted lower-case names: task.completed, file.changed, ci.pipeline.failed. */
const CUSTOM_EVENT = /^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+$/;

export type EventNameCheck = { readonly ok: true; readonly name: string } | { readonly ok: false; readonly message: string };

/** Normalise an event name: canonical names pass, aliases map, dotted custom names pass. */
export function checkEventName(name: string): EventNameCheck {
  if ((CANONICAL_EVENTS as readonly string[]).includes(name)) return { ok: true, name };
  const alias = EVENT_ALIASES[name];
  if (alias) return { ok: true, name: alias };
  if (CUSTOM_EVENT.test(name)) return { ok: true, name };
  const near = closest(name, [...CANONICAL_EVENTS, ...Object.keys(EVENT_ALIASES)]);
  return {
    ok: false,
    message: near
      ? `unknown event "${name}": did you mean "${near}"?`
      : `unknown event "${name}": use one of ${CANONICAL_EVENTS.join(", ")}, an alias (${Object.keys(EVENT_ALIASES).join(", ")}), or a dotted custom name like task.completed`,
  };
}

/** Events whose tool_input can be rewritten and which carry a tool name. */
export const TOOL_EVENTS: ReadonlySet<string> = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"]);
