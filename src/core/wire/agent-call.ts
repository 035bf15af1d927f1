// The lean half of the agent-call wire (no zod: `hookbox emit` and the opencode plugin's generator
// import it): the headers, the reply's type (from agent-call-schema.ts) and a check of it.
import type { HookSetIdentityV1 as HookSetIdentity } from "./health.ts";
import type { agentCallReplySchema } from "./agent-call-schema.ts";
import type { Wire } from "./readonly.ts";

/**
 * `hookbox emit` forwards an agent's hook call to the daemon as it came (POST
 * /v1/agents/:agent, the raw payload as the body), with what else it knows in these headers.
 */
export const AGENT_CALL_HEADERS = {
  /** "emit": answer with the whole AgentOutput envelope, not only the agent's JSON body. */
  client: "x-hookbox-client",
  /** base64url JSON of the caller's HookSetIdentity: the daemon answers only for the same. */
  identity: "x-hookbox-identity",
  /** The EVENT argument of `hookbox emit EVENT`. */
  event: "x-hookbox-event",
  /** base64url JSON of the agent's project variables (CLAUDE_PROJECT_DIR …). */
  env: "x-hookbox-env",
  /** "1" for --fail-closed. */
  failClosed: "x-hookbox-fail-closed",
  /** How long the caller waits, in ms: held approvals end before. */
  timeoutMs: "x-hookbox-timeout-ms",
  /** base64url JSON of why each daemon emit asked before this one was not used: a daemon of another hook set may guard what this one does not (guards.ts). */
  daemonsNotUsed: "x-hookbox-daemons-not-used",
  /** POST /v1/events: "0" answers an ask at once (decision "ask") instead of holding it for an approval. */
  holdApprovals: "x-hookbox-hold-approvals",
  /** base64url JSON of the path `hookbox emit` was invoked as (the agent's entry runs it): self-protect protects it for that event. */
  invokedAs: "x-hookbox-invoked-as",
} as const;

/** The daemon's answer to `emit`: exactly what emit writes and exits with. */
export type AgentCallReplyV1 = Wire<typeof agentCallReplySchema>;

/** The reply, or undefined when `value` is not one: the rules of agentCallReplySchema, without loading zod (test/server/wire.test.ts holds them to it). */
export function agentCallReplyOf(value: unknown): AgentCallReplyV1 | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const { v, stdout, stderr, exit_code, event_id } = value as Record<string, unknown>;
  if (
    v !== 1 ||
    typeof stdout !== "string" ||
    typeof stderr !== "string" ||
    typeof event_id !== "string" ||
    typeof exit_code !== "number" ||
    !Number.isSafeInteger(exit_code)
  )
    return undefined;
  return { v, stdout, stderr, exit_code, event_id };
}

/** The 409 a daemon answers when it resolves hook sets from other inputs than the caller. */
export const HOOK_SET_MISMATCH = "hook_set_mismatch";

export function encodeHeaderJson(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** undefined for a value that is not base64url JSON. */
export function decodeHeaderJson(text: string | undefined): unknown {
  if (text === undefined || text.length > 64 * 1024) return undefined;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
  } catch {
    return undefined;
  }
}

export type { HookSetIdentity };
