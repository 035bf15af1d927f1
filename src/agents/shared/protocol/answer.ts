import type { Decision } from "../../../core/events/types.ts";

/**
 * A decision reduced to what every agent protocol can express. Hookbox only ever takes
 * permission away: "allow" means "no hook objected", never "approve" — no encoder answers
 * allow/approve, so installing Hookbox cannot skip a permission prompt the agent would show.
 */
export interface Answer {
  readonly verdict: "allow" | "deny" | "ask";
  /** Never empty when verdict is deny or ask: Codex, Copilot and Claude's Stop ignore a block without a reason (research §4.4, §5). */
  readonly reason: string;
  /** The final tool input (or event data) a hook rewrote; in the agent's own shape, since decode leaves tool_input untouched. */
  readonly rewrite?: Readonly<Record<string, unknown>>;
  /** A tool's output as a granted hook rewrote it (PostToolUse), for the model instead of the original. */
  readonly output?: { readonly value: unknown };
  /** Text for the model. */
  readonly context?: string;
  /** Text for the user. */
  readonly userMessage?: string;
  /** A hook asked the agent to halt after this event. */
  readonly halt?: { readonly reason: string };
  readonly suppressOutput: boolean;
}

function nonEmpty(text: string | undefined): string | undefined {
  return text !== undefined && text.trim() !== "" ? text : undefined;
}

function byHook(decision: Decision): string {
  return decision.decided_by ? ` hook "${decision.decided_by}"` : "";
}

export function summarize(decision: Decision): Answer {
  const reason =
    decision.decision === "deny"
      ? (nonEmpty(decision.reason) ?? `Blocked by Hookbox${byHook(decision)}.`)
      : decision.decision === "ask"
        ? (nonEmpty(decision.reason) ?? nonEmpty(decision.approval?.prompt) ?? `Hookbox${byHook(decision)} asks for confirmation first.`)
        : "";
  const context = decision.context_injections.map((injection) => injection.content).filter((text) => text.trim() !== "");
  const messages = decision.user_messages.map((message) => message.message).filter((text) => text.trim() !== "");
  return {
    verdict: decision.decision,
    reason,
    ...(decision.data !== undefined && { rewrite: decision.data }),
    ...(decision.tool_response !== undefined && { output: { value: decision.tool_response } }),
    ...(context.length > 0 && { context: context.join("\n\n") }),
    ...(messages.length > 0 && { userMessage: messages.join("\n") }),
    ...(decision.continue === false && { halt: { reason: nonEmpty(decision.stop_reason) ?? `Stopped by Hookbox${byHook(decision)}.` } }),
    suppressOutput: decision.suppress_output === true,
  };
}

/** Several texts for one field (a block reason and a user message, say), blank ones dropped. */
export function joinText(...parts: readonly (string | undefined)[]): string | undefined {
  const kept = parts.filter((part): part is string => part !== undefined && part.trim() !== "");
  return kept.length > 0 ? kept.join("\n") : undefined;
}
