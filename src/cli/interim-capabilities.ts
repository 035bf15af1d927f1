import type { CapabilityHost, PreparedGrants } from "../capabilities/types.ts";

/**
 * Interim capability host used until src/capabilities lands: grants are shown as declared and
 * every host API call is denied. Fails closed by construction.
 */
export function interimCapabilities(): CapabilityHost {
  return {
    prepare: async (request) => ({
      ok: true,
      grants: { hookId: request.hookId, summary: [] } satisfies PreparedGrants,
    }),
    mayInjectContext: () => false,
    forInvocation: (grants) => ({
      hostCalls: [],
      injections: [],
      call: (name) => Promise.reject({ name: "PermissionDenied", message: `hook ${grants.hookId}: hook.${name} is not available yet`, code: "capability_denied" }),
    }),
  };
}
