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

/**
 * Hookbox's own events, which no agent names this way (adapters decode them from what the agent
 * says). SessionStop: the user stopped the session (pressed Stop, aborted the turn) — told apart
 * from Stop, the agent finishing its turn, so a gate that keeps an agent going never fights the
 * user's stop (the seed's SessionStop; Cursor's `stop` with status "aborted").
 */
export const HOOKBOX_EVENTS = ["SessionStop"] as const;

/** Seed-engine names, accepted anywhere an event name is (YAML, URLs) and normalised; AgentStop is the seed's Stop (seed 001). */
export const EVENT_ALIASES: Readonly<Record<string, CanonicalEvent>> = {
  PreAbilityCall: "PreToolUse",
  PostAbilityCall: "PostToolUse",
  AgentStop: "Stop",
};

/** Custom events are dotted lower-case names: task.completed, file.changed, ci.pipeline.failed. */
const CUSTOM_EVENT = /^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+$/;

export type EventNameCheck = { readonly ok: true; readonly name: string } | { readonly ok: false; readonly message: string };

const MAX_EVENT_NAME_CHARS = 100;

/** Normalise an event name: canonical names pass, aliases map, dotted custom names pass. */
export function checkEventName(name: string): EventNameCheck {
  if ((CANONICAL_EVENTS as readonly string[]).includes(name) || (HOOKBOX_EVENTS as readonly string[]).includes(name)) return { ok: true, name };
  const alias = EVENT_ALIASES[name];
  if (alias) return { ok: true, name: alias };
  if (CUSTOM_EVENT.test(name)) return { ok: true, name };
  // Edit distance is quadratic: only a name of an event name's length can be a typo of one.
  const near =
    name.length <= MAX_EVENT_NAME_CHARS ? closest(name, [...CANONICAL_EVENTS, ...HOOKBOX_EVENTS, ...Object.keys(EVENT_ALIASES)]) : undefined;
  const shown = name.length > MAX_EVENT_NAME_CHARS ? `${name.slice(0, MAX_EVENT_NAME_CHARS)}…` : name;
  return {
    ok: false,
    message: near
      ? `unknown event "${shown}": did you mean "${near}"?`
      : `unknown event "${shown}": use one of ${[...CANONICAL_EVENTS, ...HOOKBOX_EVENTS].join(", ")}, an alias (${Object.keys(EVENT_ALIASES).join(", ")}), or a dotted custom name like task.completed`,
  };
}

/** Events whose tool_input can be rewritten and which carry a tool name. */
export const TOOL_EVENTS: ReadonlySet<string> = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"]);
