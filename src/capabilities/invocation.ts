import type { HostCallFn } from "../../sandbox/index.ts";
import type { NativeEvent } from "../core/events/types.ts";
import type { CallContext, CapabilityDeps, InvocationScope, MethodTable } from "./capability.ts";
import { refused, renderCall } from "./denied.ts";
import { toGuestError } from "./errors.ts";
import { PathGuard } from "./paths/guard.ts";
import { isAbsolute, normalize } from "./paths/posix.ts";
import { CAPABILITIES, CAPABILITY_NAMES, type Policies } from "./registry.ts";
import { Runner } from "./run/runner.ts";
import type { StoreLocks } from "./store/locks.ts";
import type { HostCallRecord, InvocationCapabilities } from "./types.ts";

const MAX_TARGET_CHARS = 512;

/** `${workspace}` for this event: its cwd, when absolute; "/" would grant the whole disk, so it counts as none. */
export function workspaceOf(event: NativeEvent): string | undefined {
  const cwd = event.cwd;
  if (typeof cwd !== "string" || !isAbsolute(cwd) || cwd.includes("\0") || cwd.length > 4096) return undefined;
  const workspace = normalize(cwd);
  return workspace === "/" ? undefined : workspace;
}

/**
 * Bind a hook's policies to one event and expose them as the sandbox's HostCallFn. Every call
 * is recorded (allowed, denied or error) with its duration; whatever a method throws reaches
 * the guest as name, message and code only.
 */
export function createInvocation(
  hookId: string,
  policies: Policies,
  deps: CapabilityDeps,
  event: NativeEvent,
  shared: { readonly stores: StoreLocks; readonly llm: InvocationScope["llm"] },
  untrusted?: { readonly project: string },
): InvocationCapabilities {
  const paths = new PathGuard(policies.read, { hookId, io: deps.io, vars: { workspace: workspaceOf(event), home: deps.home } });
  const runner = new Runner(policies.run, { hookId, io: deps.io, hostEnv: deps.env, home: deps.home, paths, envPolicy: policies.env });
  const scope: InvocationScope = { hookId, deps, paths, runner, injections: [], stores: shared.stores, llm: shared.llm, llmCalls: [] };
  const methods: MethodTable = {};
  for (const name of CAPABILITY_NAMES) {
    Object.assign(methods, CAPABILITIES[name].contribute(policies[name] as never, scope));
  }
  const hostCalls: HostCallRecord[] = [];

  const call: HostCallFn = async (name, args, signal) => {
    const started = performance.now();
    const context: CallContext = { signal, target: "" };
    const record = (outcome: HostCallRecord["outcome"], detail?: string): void => {
      const target = context.target.length > MAX_TARGET_CHARS ? `${context.target.slice(0, MAX_TARGET_CHARS)}…` : context.target;
      const duration_ms = Math.round((performance.now() - started) * 1000) / 1000;
      hostCalls.push({ capability: name, target, outcome, duration_ms, ...(detail === undefined ? {} : { detail }) });
    };
    const method = Object.hasOwn(methods, name) ? methods[name as keyof MethodTable] : undefined;
    if (method && untrusted) {
      // Nothing is granted to a project hook the user has not trusted: every call is refused, named.
      const shown = renderCall(String(name), Array.isArray(args) ? args.slice(0, 2) : []);
      context.target = shown;
      const error = refused(
        hookId,
        shown,
        `this project's hooks (${untrusted.project}/.hookbox/hooks) are not trusted yet, so they run without any grant; run \`hookbox trust\` in ${untrusted.project} to give them what they declare`,
      );
      record("denied", error.message);
      throw toGuestError(error, `hook.${name}`);
    }
    if (!method) {
      const message = `hook.${String(name).slice(0, 100)} is not a function`;
      record("error", message);
      throw { name: "TypeError", message, code: "invalid_argument" };
    }
    try {
      const value = await method(Array.isArray(args) ? args : [], context);
      record("allowed");
      return value;
    } catch (error) {
      const guestError = toGuestError(error, `hook.${name}`);
      record(guestError.code === "capability_denied" ? "denied" : "error", guestError.message);
      throw guestError;
    }
  };

  return { call, hostCalls, injections: scope.injections, llmCalls: scope.llmCalls };
}
