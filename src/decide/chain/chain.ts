import type { ChainContinuation, ChainOutcome, ChainStep, InvocationOutcome, SandboxEngine } from "../../../sandbox/index.ts";
import { TOOL_EVENTS } from "../../core/events/names.ts";
import { parseHookResult } from "../../core/events/result.ts";
import type { HookResult, NativeEvent } from "../../core/events/types.ts";

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
export function applyModify(
  event: NativeEvent,
  data: Record<string, unknown>,
): { event: NativeEvent; changes: Record<string, unknown>; ignored: string[] } {
  if (TOOL_EVENTS.has(event.event_type)) return { event: { ...event, tool_input: data }, changes: data, ignored: [] };
  const changes: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (PROTECTED_FIELDS.has(key)) ignored.push(key);
    else changes[key] = value;
  }
  return { event: { ...event, ...changes }, changes, ignored };
}

/** What one hook's outcome does to the chain (DESIGN §5), before any bookkeeping. */
export type StepEffect =
  /** The hook failed (threw, broke a limit, returned something invalid): its on_error decides. */
  | { readonly kind: "failed"; readonly code: string; readonly message: string }
  | { readonly kind: "ran"; readonly result: HookResult; readonly stops: boolean };

/**
 * The chain's rules as one pure function, used by the worker running a chain (to know where to
 * stop and what the next hook sees) and by the dispatcher building the answer from the same
 * outcomes, so both agree: a deny or `continue: false` stops; a failure stops when the hook is
 * on_error: deny. Whether a modify is applied is the host's to decide (permissions.modify).
 */
export function stepEffect(outcome: InvocationOutcome, _event?: NativeEvent): StepEffect {
  if (!outcome.ok) return { kind: "failed", code: outcome.failure.code, message: outcome.failure.message };
  const parsed = parseHookResult(outcome.value);
  if (!parsed.ok) return { kind: "failed", code: "handler_result_invalid", message: parsed.message };
  const result = parsed.result;
  if (result.action === "modify" && !result.data)
    return { kind: "failed", code: "handler_result_invalid", message: "the handler returned action modify without data" };
  return { kind: "ran", result, stops: result.action === "deny" || result.continue === false };
}

/**
 * No hook starts this close to the deadline: its clock (performance.now) and the deadline's
 * (Date.now) may disagree by a millisecond, and it could do nothing useful in the rest anyway.
 */
export const DEADLINE_SLACK_MS = 5;

/**
 * Between the steps of a chain in a worker: stop on a deny, a halt or a failure of an on_error:
 * deny hook, or at the deadline. The event never changes inside a chain: a rewrite is decided
 * by the host (permissions.modify), which runs each transform as a chain of its own.
 */
export const continueChain: ChainContinuation = (tag, outcome, event) => {
  if (!isStepTag(tag)) return { stop: false, event };
  const effect = stepEffect(outcome, event as NativeEvent);
  const stops = effect.kind === "failed" ? tag.onError === "deny" : effect.stops;
  if (stops || Date.now() >= tag.deadlineAt - DEADLINE_SLACK_MS) return { stop: true };
  return { stop: false, event };
};

function isStepTag(tag: unknown): tag is StepTag {
  return typeof tag === "object" && tag !== null && typeof (tag as StepTag).deadlineAt === "number";
}

/** An in-process engine as a chain executor, with the pipeline's continuation (tests, one-shot commands). */
export function engineExecutor(engine: SandboxEngine): { invokeChain(steps: readonly ChainStep[], event: unknown): Promise<ChainOutcome> } {
  return { invokeChain: (steps, event) => engine.invokeChain(steps, event, continueChain) };
}
