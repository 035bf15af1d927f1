import type { AuditRecordV1 } from "../audit/record.ts";
import { TOOL_EVENTS } from "../events/names.ts";
import type { ApprovalRequest, HookAction, NativeEvent, RunStatus, UserMessage } from "../events/types.ts";
import type { LoadedHook } from "../registry/load.ts";
import { stepEffect } from "./chain.ts";
import type { InjectionCollector } from "./injections.ts";
import type { HookRun } from "./invoker.ts";

/** What the hooks of one event have decided so far. */
export interface ChainState {
  event: NativeEvent;
  denied?: { hookId: string; reason: string };
  asked?: ApprovalRequest;
  halted?: { hookId: string; reason: string | undefined };
  modified?: Record<string, unknown>;
  suppressOutput: boolean;
  readonly userMessages: UserMessage[];
  readonly abilities: Set<string>;
  readonly documents: Set<string>;
}

export function newChainState(event: NativeEvent): ChainState {
  return { event, suppressOutput: false, userMessages: [], abilities: new Set(), documents: new Set() };
}

export interface Verdict {
  status: RunStatus;
  reason?: string;
  errorCode?: string;
  action?: HookAction;
  notes: string[];
  injections: AuditRecordV1["injections"][number][];
}

/** One hook's run applied to the chain's state, by the rules of chain.ts's stepEffect. */
export function applyRun(hook: LoadedHook, onError: "continue" | "deny", run: HookRun, state: ChainState, injections: InjectionCollector, mayInject: boolean): Verdict {
  const id = hook.definition.id;
  const verdict: Verdict = { status: "completed", notes: [], injections: [] };
  // Injections made through hook.injectContext were permission-checked by the capability.
  for (const injection of run.injections) keep(injection.content, injection.role);
  const effect = stepEffect(run.outcome, state.event);
  if (effect.kind === "failed") {
    verdict.status = "failed";
    verdict.reason = effect.message;
    verdict.errorCode = effect.code;
    if (onError === "deny") state.denied ??= { hookId: id, reason: `hook ${id} failed (${effect.code}: ${effect.message}) and is ${hook.definition.onError === "deny" ? "configured on_error: deny" : "denied by fail_closed"}` };
    return verdict;
  }
  const result = effect.result;
  verdict.action = result.action ?? "continue";
  if (result.context_injection) {
    if (mayInject) keep(result.context_injection, result.context_injection_role ?? "system");
    else verdict.notes.push("context_injection dropped: the hook lacks permissions.inject_context");
  }
  if (result.user_message) state.userMessages.push({ hook_id: id, level: result.user_message_level ?? "info", message: result.user_message });
  for (const message of result.messages_to_user ?? []) state.userMessages.push({ hook_id: id, level: "info", message });
  for (const ability of result.suggested_abilities ?? []) state.abilities.add(ability);
  for (const document of result.suggested_documents ?? []) state.documents.add(document);
  if (result.suppress_output) state.suppressOutput = true;

  switch (result.action) {
    case "deny":
      verdict.status = "denied";
      verdict.reason = result.reason ?? `denied by hook ${id}`;
      state.denied = { hookId: id, reason: verdict.reason };
      break;
    case "modify":
      if (effect.modified) {
        state.event = effect.modified.event;
        state.modified = TOOL_EVENTS.has(state.event.event_type) ? effect.modified.changes : { ...(state.modified ?? {}), ...effect.modified.changes };
        for (const key of effect.modified.ignored) verdict.notes.push(`modify of ${key} ignored: it identifies the event`);
      }
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

  function keep(content: string, role: "system" | "user" | "assistant"): void {
    const added = injections.add(id, content, role);
    if (added.kept) verdict.injections.push({ role, ...added.kept });
    if (added.note) verdict.notes.push(added.note);
  }
}
