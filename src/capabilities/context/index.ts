// src/capabilities/context owns hook.injectContext and its grant; it must not import another capability or anything above src/capabilities.
import { MAX_INJECTION_BYTES } from "../../core/bounds.ts";
import type { InjectionRole } from "../../core/events/types.ts";
import { arity, optionsArg, stringArg } from "../args.ts";
import type { Capability } from "../capability.ts";
import { deniedByVerdict, renderCall } from "../denied.ts";
import { failed, invalidArgument } from "../errors.ts";
import { flagVerdict, parseFlagPolicy, type FlagPolicy } from "../grants/flag.ts";
import { utf8Bytes, wellFormed, withoutControls } from "../text.ts";

const ROLES: readonly InjectionRole[] = ["system", "user", "assistant"];
/** Injections one invocation may make; the dispatcher's per-event budget applies on top. */
export const MAX_INJECTIONS = 16;

/**
 * `inject_context`: hook.injectContext(text, {role}) adds context for the agent (role
 * "system" by default). Text is made safe to show: lone surrogates replaced, terminal escapes
 * and control characters (other than newline and tab) removed; then at most 10 KiB (UTF-8) —
 * longer text is an error, not a silent cut. The dispatcher attributes it to the hook.
 */
export const contextCapability: Capability<FlagPolicy> = {
  name: "inject_context",
  parse: (sources) => parseFlagPolicy(sources, "inject_context"),
  summary: (policy) => (policy.declared ? ["inject_context"] : []),
  contribute: (policy, scope) => ({
    injectContext: async (args, call) => {
      arity("injectContext", args, 2);
      // Control characters (NUL included) are removed below, not refused.
      const raw = stringArg("injectContext", "text", args[0], 4 * MAX_INJECTION_BYTES, { allowEmpty: true, allowNul: true });
      const options = optionsArg("injectContext", args[1], ["role"]);
      const role = options.role === undefined || options.role === null ? "system" : options.role;
      if (!ROLES.includes(role as InjectionRole))
        throw invalidArgument(`hook.injectContext: role must be one of ${ROLES.join(", ")}, got ${JSON.stringify(role)}`);
      const content = withoutControls(wellFormed(raw));
      const bytes = utf8Bytes(content);
      call.target = `${String(role)} (${bytes} bytes)`;
      const verdict = flagVerdict(policy);
      if (!verdict.ok) throw deniedByVerdict(scope.hookId, renderCall("injectContext", ["…"]), verdict, { kind: "inject_context", yaml: "true" });
      if (bytes > MAX_INJECTION_BYTES)
        throw failed("too_large", `hook.injectContext: ${bytes} bytes is more than the ${MAX_INJECTION_BYTES} bytes one injection may be`);
      if (scope.injections.length >= MAX_INJECTIONS)
        throw failed("too_large", `hook.injectContext: at most ${MAX_INJECTIONS} injections per invocation`);
      scope.injections.push({ content, role: role as InjectionRole });
      return undefined;
    },
  }),
};
