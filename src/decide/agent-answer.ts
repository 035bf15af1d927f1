import { errorMessage, HookboxError } from "../core/errors.ts";
import type { NativeEvent } from "../core/events/types.ts";
import {
  answerFor,
  detectAgent,
  FALLBACK_AGENT,
  nativeEventName,
  parseAgentStdin,
  PROJECT_DIR_ENV,
  PROTOCOLS,
  type AgentName,
  type AgentOutput,
  type AgentProtocol,
} from "../agents/protocols.ts";
import type { EvaluateOptions, Evaluation, EventHint, Evaluator } from "./evaluator.ts";
import type { Incomplete } from "./rule.ts";

/** An agent's hook call, as `emit` reads it from stdin or the daemon from a request body. */
export interface AgentCall {
  /** --agent, or undefined to tell the dialect from the payload. */
  readonly agent: AgentName | undefined;
  /** The payload as sent, before any parsing: parsing is part of what can fail. */
  readonly payload: string;
  /** The EVENT argument of `hookbox emit EVENT`. */
  readonly eventName?: string;
  /** The agent's project variables (CLAUDE_PROJECT_DIR …) as the hook saw them. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Set when the payload could not even be read whole (too large): the rule answers. */
  readonly unreadable?: Incomplete;
  /** The first bytes of a payload too large to read: where its project and event can still be found. */
  readonly head?: string;
}

export interface AgentAnswer {
  readonly output: AgentOutput;
  readonly evaluation: Evaluation;
  readonly protocol: AgentName;
}

/**
 * One agent hook call answered in that agent's protocol: decode, evaluate, encode — or, when the
 * payload cannot be decoded, the fail-closed rule over the hooks of the project it names. The
 * same function answers `emit` in-process and the daemon's /v1/agents/:agent, so the two can
 * only differ in where they run. `notices`: warnings for the person, in the agent's own way of
 * showing one (Claude's systemMessage …), once the event's hook set is known (emit's: a daemon it
 * did not use serves guards this agent's hook set lacks).
 */
export async function answerAgentCall(
  evaluator: Evaluator,
  call: AgentCall,
  options: EvaluateOptions,
  notices?: (evaluation: Evaluation) => Promise<readonly string[]>,
): Promise<AgentAnswer> {
  let payload: unknown;
  let protocol: AgentProtocol = PROTOCOLS[call.agent ?? FALLBACK_AGENT];
  let event: NativeEvent;
  try {
    if (call.unreadable) throw call.unreadable;
    payload = parseAgentStdin(call.payload);
    const detected = call.agent ?? detectAgent(payload);
    // A dialect that cannot be told (a shape and a tool name from two agents) is never read as
    // the nearest known one: its tool would meet no guard. The rule answers, in Claude's form
    // (the block most agents read).
    if (detected === undefined)
      throw {
        code: "event_invalid",
        cause:
          "the payload is in no agent dialect Hookbox can tell (its shape and its tool name disagree, or it names no event); run emit with --agent",
      } satisfies Incomplete;
    protocol = PROTOCOLS[detected];
    event = protocol.decode(payload, { ...(call.eventName !== undefined ? { eventName: call.eventName } : {}), env: projectEnv(call.env) });
  } catch (error) {
    const incomplete: Incomplete = isIncomplete(error)
      ? error
      : { code: error instanceof HookboxError ? error.code : "event_invalid", cause: errorMessage(error) };
    const hint = hintOf(protocol, payload, call);
    const evaluation = await evaluator.evaluateIncomplete(hint, incomplete, options);
    const skeleton = skeletonEvent(hint, protocol);
    const output = protocol.failure(evaluation.incomplete?.message ?? incomplete.cause, skeleton, { block: evaluation.decision.decision === "deny" });
    return { output, evaluation, protocol: protocol.name };
  }
  const evaluation = await evaluator.evaluate(event, {
    ...options,
    rewritable: protocol.acceptsRewrite(event),
    outputRewritable: protocol.acceptsOutputRewrite?.(event) === true,
  });
  if (evaluation.incomplete) {
    return {
      output: protocol.failure(evaluation.incomplete.message, event, { block: evaluation.incomplete.block }),
      evaluation,
      protocol: protocol.name,
    };
  }
  const extra = notices ? await notices(evaluation) : [];
  const decision =
    extra.length === 0
      ? evaluation.decision
      : {
          ...evaluation.decision,
          user_messages: [
            ...evaluation.decision.user_messages,
            ...extra.map((message) => ({ hook_id: "hookbox", level: "warning" as const, message })),
          ],
        };
  return { output: answerFor(protocol, decision, event, { block: true }), evaluation, protocol: protocol.name };
}

function isIncomplete(value: unknown): value is Incomplete {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Incomplete).code === "string" &&
    typeof (value as Incomplete).cause === "string" &&
    !(value instanceof Error)
  );
}

function projectEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  return Object.fromEntries(PROJECT_DIR_ENV.map((name) => [name, env[name]]));
}

/** What can still be read of a payload that did not decode: its project and its event. */
function hintOf(protocol: AgentProtocol, payload: unknown, call: AgentCall): EventHint {
  const record =
    payload !== null && typeof payload === "object" && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : call.head !== undefined
        ? leadingFields(call.head)
        : {};
  const text = (key: string): string | undefined => {
    const value = record[key];
    return typeof value === "string" && value.length <= 4096 ? value : undefined;
  };
  const roots = record.workspace_roots;
  const root = Array.isArray(roots) && typeof roots[0] === "string" ? roots[0] : undefined;
  const cwd = [...PROJECT_DIR_ENV.map((name) => call.env[name]), root, text("cwd")].find(
    (value): value is string => typeof value === "string" && value.startsWith("/") && value.length <= 4096,
  );
  const eventType = nativeEventName(protocol, text("hook_event_name") ?? text("hookEventName") ?? text("event_type") ?? call.eventName);
  const sessionId = text("session_id") ?? text("sessionId") ?? text("conversation_id");
  return { ...(cwd ? { cwd } : {}), ...(eventType ? { eventType } : {}), ...(sessionId ? { sessionId } : {}), agent: protocol.name };
}

/** An event shaped just enough for an adapter to answer for it (its name in the agent's terms). */
function skeletonEvent(hint: EventHint, protocol: AgentProtocol): NativeEvent | undefined {
  if (hint.eventType === undefined) return undefined;
  return {
    event_type: hint.eventType,
    session_id: hint.sessionId ?? "unknown",
    timestamp: new Date().toISOString(),
    agent: protocol.name,
    ...(protocol.events?.toAgent.get(hint.eventType) ? { agent_event_name: protocol.events.toAgent.get(hint.eventType) } : {}),
  } as NativeEvent;
}

/**
 * The string fields at the start of a JSON object cut short: agents write cwd and the event name
 * before the tool input, so the first occurrence of each is the agent's own, not text inside it.
 */
function leadingFields(head: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of ["cwd", "hook_event_name", "hookEventName", "session_id", "sessionId"]) {
    const match = new RegExp(`"${key}"\\s*:\\s*("(?:[^"\\\\]|\\\\.){0,4096}")`).exec(head);
    if (!match) continue;
    try {
      fields[key] = JSON.parse(match[1] as string);
    } catch {
      // not a JSON string after all: leave it out
    }
  }
  return fields;
}
