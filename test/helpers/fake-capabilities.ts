import type { CapabilityHost, HostCallRecord, PreparedGrants } from "../../src/capabilities/types.ts";
import type { PermissionsConfig } from "../../src/capabilities/grants/schema.ts";
import { mayModifyAnything, modifyVerdict, type ModifyPolicy } from "../../src/capabilities/modify/index.ts";
import type { InjectionRole } from "../../src/core/events/types.ts";

/**
 * A stand-in capability host for pipeline tests: grants are taken as declared, every host API
 * is denied except injectContext (allowed when inject_context is declared) and, for tests that
 * need a slow host call, `run` resolving after `args[1]` ms when "sleep" is declared in run.
 */
export function fakeCapabilities(): CapabilityHost {
  return {
    prepare: async (request, operator) => {
      const override = Object.hasOwn(operator.hooks, request.hookId) ? operator.hooks[request.hookId] : undefined;
      // The real modify rule (capabilities/modify), on what the hook and the operator wrote.
      const modify: ModifyPolicy = {
        declared: request.permissions.modify,
        approval: override?.permissions?.modify,
        ceiling: operator.ceilings.permissions?.modify,
        operatorOwn: request.origin !== "project",
      };
      return { ok: true, grants: { hookId: request.hookId, summary: [], permissions: request.permissions, modify } as PreparedGrants };
    },
    review: () => ({ lines: [] }),
    mayInjectContext: (grants) => (grants as PreparedGrants & { permissions: PermissionsConfig }).permissions.inject_context,
    mayModify: (grants, field) => {
      const verdict = modifyVerdict((grants as PreparedGrants & { modify: ModifyPolicy }).modify, field);
      return verdict.ok ? { ok: true } : { ok: false, reason: `modify of ${field} not allowed (${verdict.by})` };
    },
    isTransform: (grants) => mayModifyAnything((grants as PreparedGrants & { modify: ModifyPolicy }).modify),
    forInvocation: (grants) => {
      const permissions = (grants as PreparedGrants & { permissions: PermissionsConfig }).permissions;
      const hostCalls: HostCallRecord[] = [];
      const injections: { content: string; role: InjectionRole }[] = [];
      return {
        hostCalls,
        injections,
        llmCalls: [],
        call: async (name, args) => {
          if (name === "injectContext" && permissions.inject_context) {
            injections.push({ content: String(args[0]), role: (args[1] as { role?: InjectionRole } | undefined)?.role ?? "system" });
            hostCalls.push({ capability: name, target: "context", outcome: "allowed", duration_ms: 0 });
            return undefined;
          }
          if (name === "run" && args[0] === "sleep" && permissions.run.some((r) => r.cmd === "sleep")) {
            await new Promise((r) => setTimeout(r, Number(args[1])));
            return { exitCode: 0, stdout: "", stderr: "", timedOut: false };
          }
          hostCalls.push({ capability: name, target: String(args[0]), outcome: "denied", duration_ms: 0 });
          throw { name: "PermissionDenied", message: `hook ${grants.hookId}: hook.${name} is not granted`, code: "capability_denied" };
        },
      };
    },
  };
}
