// src/agent-sdk owns hookbox/agent-sdk (Hookbox as the Claude Agent SDK's hooks); it must not import beyond src/client and src/core.
// It asks a daemon through hookbox/client and runs inside the orchestrator's process (Node, Bun or Deno): no server,
// evaluator or runtime adapter of its own.
import { createClient, type ClientOptions, type HookboxClient } from "../client/index.ts";
import { errorMessage } from "../core/errors.ts";
import { agentHookTimeoutSeconds } from "../core/events/hook-timeouts.ts";
import { SDK_HOOK_EVENTS, type SdkHookCallback, type SdkHookEvent, type SdkHookOutput, type SdkHooks } from "./types.ts";
import { unavailableAnswer } from "./unavailable.ts";

export {
  SDK_HOOK_EVENTS,
  type SdkHookCallback,
  type SdkHookEvent,
  type SdkHookInput,
  type SdkHookMatcher,
  type SdkHookOutput,
  type SdkHookSpecificOutput,
  type SdkHooks,
} from "./types.ts";

export interface HookboxHooksOptions extends Omit<ClientOptions, "timeoutMs"> {
  /** A client to ask through (its own socket, url and timeouts); default: createClient(these options). */
  readonly client?: HookboxClient | Promise<HookboxClient>;
  /** The SDK events to hook (default SDK_HOOK_EVENTS). */
  readonly events?: readonly SdkHookEvent[];
  /** When Hookbox cannot fully evaluate (a broken hook), deny by the fail-closed rule instead of the hooks' own on_error. */
  readonly failClosed?: boolean;
  /** When no daemon answers: "deny" (default) refuses tool calls and permissions; "allow" lets them run, saying so. */
  readonly whenUnavailable?: "deny" | "allow";
}

/**
 * The SDK's `hooks` option: every event asks the Hookbox daemon (POST /v1/agents/claude, the
 * SDK's hook input being Claude Code's hook payload) and answers with Claude Code's own hook JSON
 * — a deny with its reason, an ask, context for the model, an updated input. The SDK applies it
 * exactly as Claude Code applies a command hook's answer.
 *
 *     query({ prompt, options: { hooks: hookboxHooks() } })
 */
export function hookboxHooks(options: HookboxHooksOptions = {}): SdkHooks {
  const { client: given, events = SDK_HOOK_EVENTS, failClosed = false, whenUnavailable = "deny", ...clientOptions } = options;
  let client: Promise<HookboxClient> | undefined;
  const ask = (): Promise<HookboxClient> => (client ??= given ? Promise.resolve(given) : createClient(clientOptions));
  const hooks: SdkHooks = {};
  for (const event of new Set(events)) {
    const seconds = agentHookTimeoutSeconds(event);
    // Hookbox answers a second before the SDK gives up: a timeout is then Hookbox's deny, not the SDK's pass.
    const timeoutMs = Math.max(1000, seconds * 1000 - 1000);
    const callback: SdkHookCallback = async (input) => {
      try {
        const answer = await (await ask()).agentCall("claude", input, { failClosed, timeoutMs });
        return answer as SdkHookOutput;
      } catch (error) {
        return unavailableAnswer(typeof input.hook_event_name === "string" ? input.hook_event_name : event, errorMessage(error), whenUnavailable);
      }
    };
    hooks[event] = [{ hooks: [callback], timeout: seconds }];
  }
  return hooks;
}
