import { DEFAULT_GUARDS } from "../hooks/config/default-operator-file.ts";
import type { LoadedHook } from "../hooks/registry/load.ts";
import type { Evaluation } from "./evaluator.ts";
import type { HookSets } from "./hook-sets.ts";
import { SELF_PROTECT_ID, selfProtectState } from "./self-protect.ts";

/**
 * Which hooks stand between an agent and a tool call. self-protect keeps the agent from switching
 * Hookbox off and judges nothing else: an agent whose hook set has no other enabled hook on
 * PreToolUse runs unguarded — its `.env` writes and `rm -rf ~` go through. install-agent, doctor,
 * the console and emit say so wherever an agent is in that state.
 */

/** The event every agent's pre-tool hook decodes to: the one where a tool call can be refused before it runs. */
const GUARD_EVENT = "PreToolUse";

/**
 * The enabled hooks of a set that can refuse a tool call, self-protect aside, by id — a hook in
 * shadow mode (mode: monitor) refuses nothing, so it is not one. With
 * `exceptProject`, without that project's own hooks: what every project gets (the operator's,
 * the user's and the standard hooks), which is what guards an agent installed for the user.
 */
export function guardsOf(hooks: readonly LoadedHook[], { exceptProject }: { exceptProject?: string | undefined } = {}): string[] {
  const own = exceptProject === undefined ? undefined : `${exceptProject}/.hookbox/`;
  return hooks
    .filter(
      (hook) =>
        hook.definition.enabled &&
        hook.definition.mode !== "monitor" &&
        hook.definition.id !== SELF_PROTECT_ID &&
        hook.definition.events.includes(GUARD_EVENT),
    )
    .filter((hook) => own === undefined || (hook.definition.source.origin !== "project" && !hook.file.startsWith(own)))
    .map((hook) => hook.definition.id)
    .sort();
}

/**
 * What a person reads when `who` (an agent, a project) runs with no guard: what that means and the
 * line that turns the standard guards on.
 */
export function unguardedMessage(who: string, operatorFile: string, selfProtectOn: boolean): string {
  const by = selfProtectOn ? "nothing but self-protect" : "nothing at all (self-protect is off too)";
  return `${who} is protected by ${by}: no guard checks its tool calls (a write to .env, rm -rf ~, curl … | sh all go through). Enable the standard guards in ${operatorFile}: builtin: [${DEFAULT_GUARDS.join(", ")}] (hookbox list --builtin shows every one)`;
}

/** The events on which an agent's user is told that a daemon emit did not use serves other hooks: the session's start, and each tool call. */
const NOTICE_EVENTS: ReadonlySet<string> = new Set(["SessionStart", GUARD_EVENT]);
/** What of each reason a daemon was not used goes into the notice. */
const MAX_REASON_CHARS = 500;

/**
 * When a daemon on a socket `emit` asked first serves another hook set (`daemonsNotUsed`: why
 * each was not used; the case: `serve --builtin all` while the agent's own set has no
 * guard) and this event's hook set has no guard but self-protect, the person believes guards are
 * on while none checks this agent: a notice for them, in the agent's own way of showing one.
 * Evaluated by whoever answers the event: emit in its own process, or the daemon of this hook
 * set that emit reached next (it gets the reasons in a header).
 */
export function unguardedNotice(
  hookSets: Pick<HookSets, "forProject">,
  operatorFile: string,
  daemonsNotUsed: readonly string[],
): ((evaluation: Evaluation) => Promise<string[]>) | undefined {
  if (daemonsNotUsed.length === 0) return undefined;
  const reasons = daemonsNotUsed.slice(0, 4).map((why) => (why.length > MAX_REASON_CHARS ? `${why.slice(0, MAX_REASON_CHARS)}…` : why));
  return async (evaluation) => {
    if (!NOTICE_EVENTS.has(evaluation.decision.event_type)) return [];
    const { snapshot } = await hookSets.forProject(evaluation.project);
    if (snapshot.operatorStatus.state !== "ok" || guardsOf(snapshot.hooks).length > 0) return [];
    return [
      `Hookbox: ${unguardedMessage("this agent", operatorFile, selfProtectState(snapshot.operator) === "on")}. A daemon emit asked first was not used: ${reasons.join("; ")}`,
    ];
  };
}
