import type { AuditRecordV1 } from "../audit/record.ts";
import { TOOL_EVENTS } from "../../core/events/names.ts";
import type { ApprovalRequest, Decision, FollowUpAction, HookAction, NativeEvent, RunStatus, UserMessage } from "../../core/events/types.ts";
import type { LogEntry } from "../../../sandbox/index.ts";
import type { LoadedHook } from "../../hooks/registry/load.ts";
import { applyModify, stepEffect } from "./chain.ts";
import { RUN_COMMAND, type FollowUpRecord } from "./follow-ups.ts";
import type { InjectionCollector } from "./injections.ts";
import type { HookRun } from "./invoker.ts";

/** What the hooks of one event have decided so far. */
export interface ChainState {
  event: NativeEvent;
  denied?: { hookId: string; reason: string };
  asked?: ApprovalRequest;
  halted?: { hookId: string; reason: string | undefined };
  modified?: Record<string, unknown>;
  /** A granted output rewrite (PostToolUse): what the model sees instead of the tool's output. */
  output?: { readonly hookId: string; readonly value: unknown };
  suppressOutput: boolean;
  readonly userMessages: UserMessage[];
  /** Routing hints, by id and by path (the first hook to suggest one wins), and follow-ups, with their hooks. */
  readonly abilities: Map<string, NonNullable<Decision["suggested_abilities"]>[number]>;
  readonly documents: Map<string, NonNullable<Decision["suggested_documents"]>[number]>;
  intent?: NonNullable<Decision["new_intent"]>;
  readonly followUps: NonNullable<Decision["follow_up_actions"]>[number][];
}

export function newChainState(event: NativeEvent): ChainState {
  return { event, suppressOutput: false, userMessages: [], abilities: new Map(), documents: new Map(), followUps: [] };
}

/** transform: hooks allowed to rewrite, on each other's output; check: every hook, on the final input. */
export type Phase = "transform" | "check";

export interface Verdict {
  status: RunStatus;
  reason?: string;
  errorCode?: string;
  action?: HookAction;
  notes: string[];
  injections: AuditRecordV1["injections"][number][];
  /** The result's own `logs`, for the audit record beside what the handler printed. */
  logs: LogEntry[];
  /** The result's follow_up_actions, to be settled (follow-ups.ts) before the record is built. */
  followUpActions: FollowUpAction[];
  /** What became of each (executed, queued, refused): the run record's `follow_ups`. */
  followUps?: FollowUpRecord[];
}

export interface RunRights {
  readonly mayInject: boolean;
  readonly phase: Phase;
  /** Whether this hook may rewrite a field, here and now (its grant, and whether the caller can apply a rewrite). */
  readonly mayModify: (field: string) => { readonly ok: true } | { readonly ok: false; readonly reason: string };
}

/** One hook's run applied to the chain's state, by the rules of chain.ts's stepEffect. */
export function applyRun(
  hook: LoadedHook,
  onError: "continue" | "deny",
  run: HookRun,
  state: ChainState,
  injections: InjectionCollector,
  rights: RunRights,
): Verdict {
  const id = hook.definition.id;
  const verdict: Verdict = { status: "completed", notes: [], injections: [], logs: [], followUpActions: [] };
  if (hook.definition.background === "not-granted")
    verdict.notes.push(
      `background: true is not granted by the operator (hookbox.yaml hooks.${id}.background: true): it ran in the foreground, in the event's chain`,
    );
  // Injections made through hook.injectContext were permission-checked by the capability.
  for (const injection of run.injections) keep(injection.content, injection.role);
  if (run.skipped !== undefined) {
    // A declarative hook's conditions decided against its result: no result, no effect.
    verdict.status = "skipped";
    verdict.reason = run.skipped;
    return verdict;
  }
  const effect = stepEffect(run.outcome, state.event);
  if (effect.kind === "failed") {
    verdict.status = "failed";
    verdict.reason = effect.message;
    verdict.errorCode = effect.code;
    if (onError === "deny")
      state.denied ??= {
        hookId: id,
        reason: `hook ${id} failed (${effect.code}: ${effect.message}) and is ${hook.definition.onError === "deny" ? "configured on_error: deny" : "denied by fail_closed"}`,
      };
    return verdict;
  }
  // The repository hooks template blocks with `error: "blocked_by_policy"`: a deny, whatever else it says.
  const result =
    effect.result.error !== undefined
      ? { ...effect.result, action: "deny" as const, reason: effect.result.reason ?? effect.result.error }
      : effect.result;
  verdict.action = result.action ?? "continue";
  for (const line of result.logs ?? []) verdict.logs.push(typeof line === "string" ? { level: "info", message: line } : line);
  if (result.context_injection) {
    if (rights.mayInject) keep(result.context_injection, result.context_injection_role ?? "system");
    else verdict.notes.push("context_injection dropped: the hook lacks permissions.inject_context");
  }
  if (result.user_message) state.userMessages.push({ hook_id: id, level: result.user_message_level ?? "info", message: result.user_message });
  for (const message of result.messages_to_user ?? []) state.userMessages.push({ hook_id: id, level: "info", message });
  for (const ability of result.suggested_abilities ?? []) {
    const entry = typeof ability === "string" ? { id: ability } : ability;
    if (!state.abilities.has(entry.id)) state.abilities.set(entry.id, { ...entry, hook_id: id });
  }
  for (const document of result.suggested_documents ?? []) {
    const entry = typeof document === "string" ? { path: document } : document;
    if (!state.documents.has(entry.path)) state.documents.set(entry.path, { ...entry, hook_id: id });
  }
  if (result.new_intent !== undefined && !state.intent)
    state.intent = { ...(typeof result.new_intent === "string" ? { intent: result.new_intent } : result.new_intent), hook_id: id };
  for (const action of result.follow_up_actions ?? []) {
    verdict.followUpActions.push(action);
    // Hookbox runs a run_command itself (under the hook's run grant); the others are the caller's.
    if (action.kind !== RUN_COMMAND) state.followUps.push({ ...action, hook_id: id });
  }
  // No agent has a place for these: the audit keeps them for whoever tunes the matchers.
  for (const hint of result.update_matcher_suggestions ?? [])
    verdict.notes.push(`matcher suggestion: ${hint.ability_id} ${hint.signal}${hint.weight !== undefined ? ` (weight ${hint.weight})` : ""}`);
  if (result.usage_recorded !== undefined) verdict.notes.push(`usage_recorded: ${JSON.stringify(result.usage_recorded).slice(0, 200)}`);
  if (result.suppress_output) state.suppressOutput = true;

  if (result.tool_response !== undefined) rewriteOutput(result.tool_response);

  switch (result.action) {
    case "deny":
      verdict.status = "denied";
      verdict.reason = result.reason ?? `denied by hook ${id}`;
      state.denied = { hookId: id, reason: verdict.reason };
      break;
    case "modify":
      rewrite(result.data as Record<string, unknown>);
      break;
    case "ask_user":
      state.asked ??= {
        hook_id: id,
        prompt: result.approval_prompt ?? result.reason ?? `Hook ${id} asks for approval`,
        options: result.approval_options ?? ["allow", "deny"],
        timeout_ms: result.approval_timeout_ms ?? hook.definition.approval.timeoutMs,
        default: result.approval_default ?? hook.definition.approval.default,
      };
      break;
    default:
      if (result.reason) verdict.reason = result.reason;
  }
  if (result.continue === false) state.halted = { hookId: id, reason: result.stop_reason ?? result.reason };
  return verdict;

  /** A rewrite is made only by a transform, and only of the fields it may change; otherwise it is refused, with why. */
  function rewrite(data: Record<string, unknown>): void {
    const applied = applyModify(state.event, data);
    const refusals = changedFields(state.event, applied.event).flatMap((field) => {
      const allowed = rights.mayModify(field);
      return allowed.ok ? [] : [`${field}: ${allowed.reason}`];
    });
    if (refusals.length > 0) {
      verdict.notes.push(`modify refused (the input stays as it was): ${refusals.join("; ")}`);
      return;
    }
    if (rights.phase === "check") {
      verdict.notes.push(
        "modify refused: this run judged the final input; a rewrite here would reach the agent unchecked (rewrites come from transforms: permissions.modify, granted by the operator)",
      );
      return;
    }
    state.event = applied.event;
    state.modified = TOOL_EVENTS.has(state.event.event_type) ? applied.changes : { ...(state.modified ?? {}), ...applied.changes };
    for (const key of applied.ignored) verdict.notes.push(`modify of ${key} ignored: it identifies the event`);
  }

  /**
   * An output rewrite (PostToolUse's `tool_response`): the same power as an input rewrite — the
   * checks after it judge what the model will see — so the same rule: a transform whose
   * `permissions.modify` the operator granted for `tool_response`, on an event the agent can
   * apply it to. Otherwise refused, and the record says why.
   */
  function rewriteOutput(value: unknown): void {
    const refused = (why: string): void => void verdict.notes.push(`output rewrite refused (the model sees the tool's own output): ${why}`);
    if (!("tool_response" in state.event)) return refused(`${state.event.event_type} carries no tool output to rewrite`);
    const allowed = rights.mayModify(OUTPUT_FIELD);
    if (!allowed.ok) return refused(`${OUTPUT_FIELD}: ${allowed.reason}`);
    if (rights.phase === "check") return refused("this run judged the final output; a rewrite here would reach the model unchecked");
    state.event = { ...state.event, tool_response: value };
    state.output = { hookId: id, value };
    verdict.notes.push("output rewritten (tool_response)");
  }

  function keep(content: string, role: "system" | "user" | "assistant"): void {
    const added = injections.add(id, content, role);
    if (added.kept) verdict.injections.push({ role, ...added.kept });
    if (added.note) verdict.notes.push(added.note);
  }
}

/** The field an output rewrite changes, as permissions.modify names it. */
export const OUTPUT_FIELD = "tool_response";

/** The fields a rewrite changes, as dotted paths: `tool_input.command` for a tool's input, `prompt` for other events. */
export function changedFields(before: NativeEvent, after: NativeEvent): string[] {
  const changed = (a: Record<string, unknown>, b: Record<string, unknown>, prefix: string): string[] =>
    [...new Set([...Object.keys(a), ...Object.keys(b)])]
      .filter((key) => JSON.stringify(a[key]) !== JSON.stringify(b[key]))
      .map((key) => `${prefix}${key}`);
  if (TOOL_EVENTS.has(before.event_type))
    return changed((before.tool_input ?? {}) as Record<string, unknown>, (after.tool_input ?? {}) as Record<string, unknown>, "tool_input.");
  return changed(before as Record<string, unknown>, after as Record<string, unknown>, "");
}
