// src/decide/approvals owns pending ask_user approvals: holding them, resolving them, remembering "allow always".
import { subjectOf } from "../../core/events/subject.ts";
import type { ApprovalRequest, NativeEvent } from "../../core/events/types.ts";

export type ApprovalVerdict = "allow" | "deny" | "allow_always";

export interface PendingApproval {
  readonly id: string;
  readonly hook_id: string;
  readonly event_type: string;
  readonly session_id: string;
  readonly tool_name?: string;
  /** What is being approved, in a line (the command, the file path …). */
  readonly subject: string;
  readonly prompt: string;
  readonly options: readonly string[];
  readonly default: "allow" | "deny";
  readonly created_at: string;
  readonly expires_at: string;
}

/** Where a person answered: `hookbox approve`/`deny`, the web console, or another client of the HTTP API. */
export type AnsweredVia = "cli" | "console" | "api";

export interface ApprovalOutcome {
  readonly id: string;
  readonly decision: "allow" | "deny";
  readonly by: "user" | "timeout" | "session-rule" | "shutdown";
  /** Set when a user answered. */
  readonly via?: AnsweredVia;
  /** The user chose "always for this session". */
  readonly always?: boolean;
}

/** What the console and notifications watch: an approval started waiting, or stopped (answered, timed out, shut down). */
export type ApprovalChange =
  | { readonly kind: "held"; readonly approval: PendingApproval }
  | { readonly kind: "settled"; readonly approval: PendingApproval; readonly outcome: ApprovalOutcome };

interface Entry {
  readonly pending: PendingApproval;
  readonly settle: (outcome: ApprovalOutcome) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

/**
 * Pending approvals held by the daemon while the agent's request waits. Each resolves by a
 * user's verdict (API or CLI) or, at its timeout, by its default (deny unless the hook said
 * otherwise). "Allow always" is remembered for the rest of the session, per hook and tool.
 */
export class ApprovalStore {
  private readonly entries = new Map<string, Entry>();
  private readonly alwaysAllowed = new Set<string>();
  private readonly listeners = new Set<(change: ApprovalChange) => void>();

  /** Observe approvals as they are held and settled; returns the unsubscribe function. A listener's throw is ignored. */
  onChange(listener: (change: ApprovalChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  allowedForSession(event: NativeEvent, hookId: string): boolean {
    return this.alwaysAllowed.has(sessionKey(event, hookId));
  }

  hold(request: ApprovalRequest, event: NativeEvent): { readonly id: string; readonly outcome: Promise<ApprovalOutcome> } {
    const id = crypto.randomUUID();
    const now = Date.now();
    const pending: PendingApproval = {
      id,
      hook_id: request.hook_id,
      event_type: event.event_type,
      session_id: event.session_id,
      ...(event.tool_name ? { tool_name: event.tool_name } : {}),
      subject: subjectOf(event),
      prompt: request.prompt,
      options: request.options,
      default: request.default,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + request.timeout_ms).toISOString(),
    };
    const outcome = new Promise<ApprovalOutcome>((resolve) => {
      const timer = setTimeout(() => this.settle(id, { id, decision: request.default, by: "timeout" }), request.timeout_ms);
      this.entries.set(id, { pending, settle: resolve, timer });
    });
    this.tell({ kind: "held", approval: pending });
    return { id, outcome };
  }

  list(): PendingApproval[] {
    return [...this.entries.values()].map((entry) => entry.pending);
  }

  get(id: string): PendingApproval | undefined {
    return this.entries.get(id)?.pending;
  }

  /** A user's answer, and where it came from. Returns false when there is no such pending approval (already resolved, timed out, or unknown). */
  resolve(id: string, verdict: ApprovalVerdict, via: AnsweredVia = "api"): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    if (verdict === "allow_always")
      this.alwaysAllowed.add(`${entry.pending.session_id}\0${entry.pending.hook_id}\0${entry.pending.tool_name ?? entry.pending.event_type}`);
    this.settle(id, {
      id,
      decision: verdict === "deny" ? "deny" : "allow",
      by: "user",
      via,
      ...(verdict === "allow_always" ? { always: true } : {}),
    });
    return true;
  }

  /** Deny everything still pending (the daemon is stopping). */
  close(): void {
    for (const id of [...this.entries.keys()]) this.settle(id, { id, decision: "deny", by: "shutdown" });
  }

  private settle(id: string, outcome: ApprovalOutcome): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.entries.delete(id);
    entry.settle(outcome);
    this.tell({ kind: "settled", approval: entry.pending, outcome });
  }

  private tell(change: ApprovalChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch {
        // A watcher's failure never changes an approval.
      }
    }
  }
}

function sessionKey(event: NativeEvent, hookId: string): string {
  return `${event.session_id}\0${hookId}\0${event.tool_name ?? event.event_type}`;
}
