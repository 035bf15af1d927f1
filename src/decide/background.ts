import type { ContextInjection, Decision, UserMessage } from "../core/events/types.ts";
import type { RegistryEntry } from "../hooks/registry/registry.ts";
import { isBroken } from "../hooks/registry/registry.ts";
import type { LoadedHook } from "../hooks/registry/load.ts";

/**
 * Background hooks (Claude Code's `async`): a hook that declares `background: true`, and that the
 * operator file lets run so (`hooks.<id>.background: true`), is left out of its event's chain and
 * run by the daemon after the answer has left — the event is never held for it, and it cannot
 * decide it. Its result waits for the next event of the same session: its context (with
 * permissions.inject_context) and its messages for the user ride on that event's answer; its deny
 * becomes the answer to the session's next tool call ("deny-next"). Same limits and grants as in
 * the foreground; every run is audited (trigger `background`).
 */
export interface BackgroundResult {
  readonly hook_id: string;
  readonly run_id: string;
  /** The event that started it. */
  readonly started_by: string;
  /** Epoch ms when it ended. */
  readonly at: number;
  readonly context: readonly ContextInjection[];
  readonly messages: readonly UserMessage[];
  /** Its deny: the reason the session's next tool call is refused with. */
  readonly deny?: string;
}

/** Whether a matched hook runs in the background (granted); a broken entry never does. */
export function runsInBackground(entry: RegistryEntry): entry is LoadedHook {
  return !isBroken(entry) && entry.definition.background === "granted";
}

/** What of a background run's answer waits for the session's next event. */
export function resultOf(decision: Decision, hookId: string, runId: string, startedBy: string, at: number): BackgroundResult | undefined {
  const deny = decision.decision === "deny" ? (decision.reason ?? `denied by hook ${hookId}`) : undefined;
  const context = decision.context_injections.filter((item) => item.hook_id === hookId);
  const messages = decision.user_messages.filter((item) => item.hook_id === hookId);
  if (deny === undefined && context.length === 0 && messages.length === 0) return undefined;
  return { hook_id: hookId, run_id: runId, started_by: startedBy, at, context, messages, ...(deny !== undefined ? { deny } : {}) };
}

/** Per session at most, and for how long: a background result of an hour ago is no help. */
const MAX_PER_SESSION = 16;
const MAX_SESSIONS = 1000;
const MAX_AGE_MS = 3600 * 1000;

/** Background results waiting for their session's next event, in the daemon's memory; bounded, the oldest dropped (and counted). */
export class BackgroundResults {
  private readonly queues = new Map<string, BackgroundResult[]>();
  dropped = 0;

  add(key: string, result: BackgroundResult): void {
    const queue = [...(this.queues.get(key) ?? []), result];
    while (queue.length > MAX_PER_SESSION) {
      queue.shift();
      this.dropped++;
    }
    this.queues.delete(key);
    this.queues.set(key, queue);
    while (this.queues.size > MAX_SESSIONS) {
      const oldest = this.queues.keys().next().value as string;
      this.dropped += this.queues.get(oldest)?.length ?? 0;
      this.queues.delete(oldest);
    }
  }

  /**
   * Take what this event can deliver: everything when it may carry a deny (a tool call); otherwise
   * the context and messages, leaving each deny for the session's next tool call.
   */
  take(key: string, canDeny: boolean, now: number): BackgroundResult[] {
    const queue = (this.queues.get(key) ?? []).filter((item) => now - item.at <= MAX_AGE_MS);
    this.queues.delete(key);
    if (queue.length === 0) return [];
    if (canDeny) return queue;
    const kept = queue.filter((item) => item.deny !== undefined).map((item) => ({ ...item, context: [], messages: [] }));
    if (kept.length > 0) this.queues.set(key, kept);
    return queue.map(({ deny: _deny, ...rest }) => rest).filter((item) => item.context.length > 0 || item.messages.length > 0);
  }

  size(key: string): number {
    return this.queues.get(key)?.length ?? 0;
  }
}

/** An answer with the background results of its session: their context (with where it comes from), messages, and a deny-next. */
export function withBackground(decision: Decision, results: readonly BackgroundResult[]): Decision {
  if (results.length === 0) return decision;
  const origin = (item: BackgroundResult): string => `a background run on ${item.started_by} at ${new Date(item.at).toISOString()}`;
  const context = results.flatMap((item) =>
    item.context.map((injection) => ({ ...injection, content: `[Hookbox: from hook "${item.hook_id}", ${origin(item)}]\n${injection.content}` })),
  );
  const denial = results.find((item) => item.deny !== undefined);
  // A deny-next refuses the call whatever the hooks of this event said: no rewrite or ask of theirs stands.
  const { data: _data, approval: _approval, ...rest } = decision;
  return {
    ...(denial && decision.decision !== "deny"
      ? { ...rest, decision: "deny" as const, reason: `${denial.deny} (hook ${denial.hook_id}, ${origin(denial)})`, decided_by: denial.hook_id }
      : decision),
    context_injections: [...decision.context_injections, ...context],
    user_messages: [...decision.user_messages, ...results.flatMap((item) => item.messages)],
    delivered_runs: [
      ...(decision.delivered_runs ?? []),
      ...results.map((item) => ({ hook_id: item.hook_id, run_id: item.run_id, trigger: "background" })),
    ],
  };
}
