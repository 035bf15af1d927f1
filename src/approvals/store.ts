// src/approvals owns pending ask_user approvals: holding them, resolving them, remembering "allow always".
import type { ApprovalRequest, NativeEvent } from "../events/types.ts";

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

export interface ApprovalOutcome {
  readonly id: string;
  readonly decision: "allow" | "deny";
  readonly by: "user" | "timeout" | "session-rule" | "shutdown";
}

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
    return { id, outcome };
  }

  list(): PendingApproval[] {
    return [...this.entries.values()].map((entry) => entry.pending);
  }

  /** Returns false when there is no such pending approval (already resolved, timed out, or unknown). */
  resolve(id: string, verdict: ApprovalVerdict): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    if (verdict === "allow_always") this.alwaysAllowed.add(`${entry.pending.session_id}\0${entry.pending.hook_id}\0${entry.pending.tool_name ?? entry.pending.event_type}`);
    this.settle(id, { id, decision: verdict === "deny" ? "deny" : "allow", by: "user" });
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
  }
}

function sessionKey(event: NativeEvent, hookId: string): string {
  return `${event.session_id}\0${hookId}\0${event.tool_name ?? event.event_type}`;
}

function subjectOf(event: NativeEvent): string {
  const input = event.tool_input ?? {};
  const candidate = input.command ?? input.file_path ?? input.path ?? input.url ?? event.prompt;
  const text = typeof candidate === "string" ? candidate : JSON.stringify(input);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
