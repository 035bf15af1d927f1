import { CANONICAL_EVENTS, checkEventName, HOOKBOX_EVENTS } from "../../../core/events/names.ts";
import type { AgentName, AgentProtocol } from "./types.ts";
import { invalid, snakeCase } from "./payload.ts";

/** An agent's event names and the native names they decode to; built once per adapter. */
export interface EventTable {
  /** Agent event name → native event_type (canonical, or the custom dotted name it decodes to). */
  readonly toNative: ReadonlyMap<string, string>;
  /** Native event_type → the agent's name for it (the first listed wins where an agent has two). */
  readonly toAgent: ReadonlyMap<string, string>;
}

export function eventTable(pairs: Readonly<Record<string, string>>): EventTable {
  const toNative = new Map(Object.entries(pairs));
  const toAgent = new Map<string, string>();
  for (const [agentName, nativeName] of toNative) if (!toAgent.has(nativeName)) toAgent.set(nativeName, agentName);
  return { toNative, toAgent };
}

export interface ResolvedEvent {
  /** The agent's own name: what the encoder answers for (Claude checks hookSpecificOutput.hookEventName against it). */
  readonly agentEventName: string;
  readonly eventType: string;
}

/** Event names are identifiers: refuse anything else before it reaches a message, a log or a file name. */
const AGENT_EVENT_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/;
const CUSTOM_EVENT = /^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+$/;
const CANONICAL: ReadonlySet<string> = new Set([...CANONICAL_EVENTS, ...HOOKBOX_EVENTS]);

/**
 * The event a payload is about. The payload's own name wins over the `emit EVENT` argument:
 * Claude runs a Stop hook from a subagent's frontmatter as SubagentStop (research §1.1), so the
 * configured name can differ from the true one. An agent event with no native counterpart becomes
 * `<agent>.<snake_case>` (claude.message_display, gemini.before_model) rather than an error.
 */
export function resolveEvent(
  agent: AgentName,
  table: EventTable,
  payloadName: string | undefined,
  hintName: string | undefined,
  field: string,
): ResolvedEvent {
  const name = payloadName ?? hintName;
  if (name === undefined) {
    throw invalid(`${field}: missing — the payload names no event; pass it as \`hookbox emit <EVENT> --agent ${agent}\``, field);
  }
  if (!AGENT_EVENT_NAME.test(name)) {
    throw invalid(
      `${payloadName === undefined ? "the EVENT argument" : field}: "${name.slice(0, 60)}" is not an event name (letters, digits, _ . -; at most 100)`,
      field,
    );
  }
  const native = table.toNative.get(name);
  if (native !== undefined) return { agentEventName: name, eventType: native };
  const agentName = table.toAgent.get(name);
  if (agentName !== undefined) return { agentEventName: agentName, eventType: name };
  if (CANONICAL.has(name) || CUSTOM_EVENT.test(name)) return { agentEventName: name, eventType: name };
  return { agentEventName: name, eventType: `${agent}.${snakeCase(name).replace(/[^a-z0-9_-]+/g, "_")}` };
}

/** The agent's name for an event the encoder is given (decoded events carry it; hand-made ones may not). */
export function agentEventNameOf(event: { readonly event_type: string; readonly agent_event_name?: unknown }, table: EventTable): string {
  if (typeof event.agent_event_name === "string") return event.agent_event_name;
  return table.toAgent.get(event.event_type) ?? event.event_type;
}

/** The native event type an agent's event name decodes to, when the name is known to the dialect (or is native). */
export function nativeEventName(protocol: Pick<AgentProtocol, "events">, name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const mapped = protocol.events?.toNative.get(name);
  if (mapped !== undefined) return mapped;
  const check = checkEventName(name);
  return check.ok ? check.name : undefined;
}
