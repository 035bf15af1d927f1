import type { ContextInjection, InjectionRole } from "../core/events/types.ts";

/** Context a triggered run produced, waiting for an agent's event in its project. */
export interface QueuedInjection {
  readonly hook_id: string;
  readonly role: InjectionRole;
  readonly content: string;
  readonly run_id: string;
  readonly trigger: string;
  /** Epoch ms of the run. */
  readonly at: number;
}

/** Per project, what waits at most: a schedule that runs while no agent works must not pile up. */
const MAX_QUEUED = 16;
const MAX_QUEUED_BYTES = 64 * 1024;
/** Context older than this is stale: a test result of yesterday is no help. */
const MAX_AGE_MS = 24 * 3600 * 1000;

/** Events whose answer can carry context to the model in the agents Hookbox speaks (their additionalContext). */
export const DELIVERY_EVENTS: ReadonlySet<string> = new Set(["PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart"]);

/**
 * Context injections of triggered runs (a schedule, a watch, a manual fire of one), queued per
 * project in the daemon's memory and delivered — once, to whichever session's event comes first —
 * on the next allowed agent event of that project that can carry context. Bounded: the oldest
 * are dropped (and counted) beyond 16 per project or 64 KiB.
 */
export class PendingInjections {
  private readonly queues = new Map<string, QueuedInjection[]>();
  dropped = 0;

  add(project: string | undefined, injection: QueuedInjection): void {
    const key = project ?? "";
    const queue = [...(this.queues.get(key) ?? []), injection];
    while (queue.length > MAX_QUEUED || bytes(queue) > MAX_QUEUED_BYTES) {
      queue.shift();
      this.dropped++;
    }
    this.queues.set(key, queue);
  }

  /** Take, oldest first, what fits in `budgetBytes`; what does not fit stays for the next event. */
  take(project: string | undefined, budgetBytes: number, now: number): QueuedInjection[] {
    const key = project ?? "";
    const queue = (this.queues.get(key) ?? []).filter((item) => now - item.at <= MAX_AGE_MS);
    const taken: QueuedInjection[] = [];
    let used = 0;
    while (queue.length > 0) {
      const next = queue[0] as QueuedInjection;
      const size = new TextEncoder().encode(delivered(next).content).byteLength;
      if (used + size > budgetBytes) break;
      used += size;
      taken.push(queue.shift() as QueuedInjection);
    }
    if (queue.length > 0) this.queues.set(key, queue);
    else this.queues.delete(key);
    return taken;
  }

  size(project: string | undefined): number {
    return this.queues.get(project ?? "")?.length ?? 0;
  }
}

/** As the agent gets it: the content after a line saying where it comes from. */
export function delivered(item: QueuedInjection): ContextInjection {
  return {
    hook_id: item.hook_id,
    role: item.role,
    content: `[Hookbox: from hook "${item.hook_id}", a ${item.trigger} run at ${new Date(item.at).toISOString()}]\n${item.content}`,
  };
}

function bytes(queue: readonly QueuedInjection[]): number {
  return queue.reduce((sum, item) => sum + new TextEncoder().encode(item.content).byteLength, 0);
}
