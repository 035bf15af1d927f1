import type { ChainContinuation, ChainOutcome, ChainStep, SandboxEngine } from "../../sandbox/index.ts";
import { TOOL_EVENTS } from "../events/names.ts";
import { parseHookResult } from "../events/result.ts";
import type { NativeEvent } from "../events/types.ts";

/** What the continuation needs of a hook; travels with each step as its `tag`. */
export interface StepTag {
  readonly hookId: string;
  readonly onError: "continue" | "deny";
  /** Epoch ms: no later hook starts after this (the event deadline). */
  readonly deadlineAt: number;
}

/** Fields a modify on a non-tool event may not change: they identify the event itself. */
export const PROTECTED_FIELDS: ReadonlySet<string> = new Set(["event_type", "session_id", "timestamp", "cwd", "agent"]);

/**
 * The event the next hook sees after a modify: tool events get the data as their new
 * tool_input; other events take the data's fields, except the ones that identify the event.
 */
export function applyModify(event: NativeEvent, data: Record<string, unknown>): { event: NativeEvent; changes: Record<string, unknown>; ignored: string[] } {
  if (TOOL_EVENTS.has(event.event_type)) return { event: { ...event, tool_input: data }, changes: data, ignored: [] };
  const changes: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (PROTECTED_FIELDS.has(key)) ignored.push(key);
    else changes[key] = value;
  }
  return { event: { ...event, ...changes }, changes, ignored };
}

/**
 * Whether the chain stops after a hook, and the event the next one sees: the pipeline's rules
 * (DESIGN §5) as a pure function, so the worker running a chain and the dispatcher building
 * the answer from its outcomes agree on where it stopped. Stops on: deny; continue: false; a
 * failure or invalid result of an on_error: deny hook; the event deadline.
 */
/**
 * No hook starts this close to the deadline: its clock (performance.now) and the deadline's
 * (Date.now) may disagree by a millisecond, and it could do nothing useful in the rest anyway.
 */
export const DEADLINE_SLACK_MS = 5;

export const continueChain: ChainContinuation = (tag, outcome, event) => {
  if (!isStepTag(tag)) return { stop: false, event };
  const next = afterStep(tag, outcome, event as NativeEvent);
  if (next === "stop" || Date.now() >= tag.deadlineAt - DEADLINE_SLACK_MS) return { stop: true };
  return { stop: false, event: next };
};

/** The event the next hook sees, or "stop" (the deadline aside). */
function afterStep(tag: StepTag, outcome: Parameters<ChainContinuation>[1], event: NativeEvent): NativeEvent | "stop" {
  const failed = tag.onError === "deny" ? "stop" : event;
  if (!outcome.ok) return failed;
  const parsed = parseHookResult(outcome.value);
  if (!parsed.ok) return failed;
  const result = parsed.result;
  if (result.action === "deny" || result.continue === false) return "stop";
  if (result.action === "modify") return result.data ? applyModify(event, result.data).event : failed;
  return event;
}

function isStepTag(tag: unknown): tag is StepTag {
  return typeof tag === "object" && tag !== null && typeof (tag as StepTag).deadlineAt === "number";
}

/** An in-process engine as a chain executor, with the pipeline's continuation (tests, one-shot commands). */
export function engineExecutor(engine: SandboxEngine): { invokeChain(steps: readonly ChainStep[], event: unknown): Promise<ChainOutcome> } {
  return { invokeChain: (steps, event) => engine.invokeChain(steps, event, continueChain) };
}

