import { WIRE_VERSION, type Decision } from "../core/events/types.ts";
import type { OperatorFile } from "../hooks/config/schema.ts";
import type { IgnoredSetting, SettingOrigin } from "../hooks/config/layers.ts";
import { entryId, entryOnError, type RegistryEntry, type RegistrySnapshot } from "../hooks/registry/registry.ts";
import { describeOperatorProblems } from "./operator-source.ts";

/** Why Hookbox could not fully evaluate an event. */
export interface Incomplete {
  /** Stable code: event_invalid, request_too_large, operator_unusable, … */
  readonly code: string;
  /** What went wrong, for people: "tool_input: nested deeper than 64 levels". */
  readonly cause: string;
}

/** What the rule answers, and the words for why. */
export interface RuleAnswer {
  readonly block: boolean;
  /** "hook guard-secrets could have run and is on_error: deny", "fail_closed is set in …" */
  readonly rule: string;
  /** The whole message the agent and the person see. */
  readonly message: string;
}

/** Who made Hookbox fail-closed: the caller's flag or the operator file. */
export interface FailClosed {
  readonly by: string;
}

/**
 * Whether an event is evaluated fail-closed, and who said so: the only place `fail_closed` is read
 * from the operator file. The evaluator asks once per event and hands the answer on (to the
 * dispatcher, the rule below, an audit failure).
 */
export function failClosedBy(operator: Pick<OperatorFile, "fail_closed">, callerFlag: boolean | undefined): FailClosed | undefined {
  if (callerFlag) return { by: "--fail-closed" };
  if (operator.fail_closed) return { by: "fail_closed: true in the operator file" };
  return undefined;
}

/** A file's layer as the fail_closed merge needs it: its parsed value, and whether it wrote fail_closed itself. */
export interface FailClosedLayer {
  readonly operator: Pick<OperatorFile, "fail_closed">;
  readonly written: unknown;
}

/**
 * fail_closed under the system tier (hooks/config/layers.ts merges the rest): either file may
 * set it, the user's cannot clear the system's. Returns the value in force, where it comes from
 * (undefined when neither file says anything of it) and a user's `false` the merge ignores.
 */
export function layeredFailClosed(
  system: FailClosedLayer,
  user: FailClosedLayer,
): { value: boolean; origin: SettingOrigin | undefined; ignored: IgnoredSetting | undefined } {
  const wrote = (layer: FailClosedLayer): boolean =>
    typeof layer.written === "object" && layer.written !== null && Object.hasOwn(layer.written, "fail_closed");
  const bySystem = failClosedBy(system.operator, false) !== undefined;
  const byUser = failClosedBy(user.operator, false) !== undefined;
  const value = bySystem || byUser;
  const from = bySystem ? (byUser ? "both" : "system") : byUser ? "user" : "system";
  return {
    value,
    origin: value || wrote(system) || wrote(user) ? { setting: "fail_closed", value: String(value), from } : undefined,
    ignored:
      bySystem && wrote(user) && !byUser ? { setting: "fail_closed", value: "false", why: "the system policy says fail_closed: true" } : undefined,
  };
}

/**
 * The one fail-closed rule (SECURITY.md, "When Hookbox cannot decide"): when an event cannot be
 * fully evaluated, the strictest on_error among the hooks that could have run for it decides —
 * those registered for its event type, or every hook of the project when even that is not
 * known — and fail_closed (operator file or --fail-closed) makes it deny whatever they say. An
 * unusable operator file always denies: its intent cannot be known.
 */
export function applyRule(
  snapshot: RegistrySnapshot,
  eventType: string | undefined,
  incomplete: Incomplete,
  failClosed: FailClosed | undefined,
): RuleAnswer {
  const what = `Hookbox could not evaluate this ${eventType ?? "event"} (${incomplete.cause})`;
  if (snapshot.operatorStatus.state === "unusable") {
    const problems = describeOperatorProblems(snapshot.operatorStatus.problems);
    return {
      block: true,
      rule: "the operator file cannot be used",
      message: `Hookbox's operator file is invalid (${problems}), so it cannot know which guards the operator wants: every event is blocked until the file is fixed (check it with: hookbox validate).`,
    };
  }
  if (failClosed)
    return { block: true, rule: `fail_closed (${failClosed.by})`, message: `${what}; blocked because Hookbox runs fail-closed (${failClosed.by}).` };
  const candidates: readonly RegistryEntry[] = eventType !== undefined ? snapshot.registeredFor(eventType) : snapshot.allEntries();
  const strict = candidates.find((entry) => entryOnError(entry) === "deny");
  const scope = eventType !== undefined ? `registered for ${eventType}` : "of this project";
  if (strict) {
    return {
      block: true,
      rule: `hook ${entryId(strict)} is on_error: deny`,
      message: `${what}; blocked because hook "${entryId(strict)}", ${scope}, could have run and is on_error: deny.`,
    };
  }
  const why = candidates.length === 0 ? `no hook is ${scope}` : `every hook ${scope} is on_error: continue`;
  return { block: false, rule: why, message: `${what}; going ahead because ${why}.` };
}

/** The rule's answer as a Decision, for the audit and for clients that speak Hookbox's own dialect. */
export function ruleDecision(eventId: string, eventType: string | undefined, answer: RuleAnswer): Decision {
  return {
    v: WIRE_VERSION,
    event_id: eventId,
    event_type: eventType ?? "unknown",
    decision: answer.block ? "deny" : "allow",
    reason: answer.message,
    decided_by: "hookbox",
    context_injections: [],
    user_messages: answer.block ? [] : [{ hook_id: "hookbox", level: "warning", message: answer.message }],
    continue: true,
    runs: [],
  };
}
