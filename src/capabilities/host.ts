import type { NativeEvent } from "../core/events/types.ts";
import type { CapabilityDeps } from "./capability.ts";
import { flagVerdict } from "./grants/flag.ts";
import { mayModifyAnything, modifyVerdict } from "./modify/index.ts";
import { grantSources, type OperatorGrants } from "./grants/sources.ts";
import { createInvocation } from "./invocation.ts";
import { CAPABILITIES, CAPABILITY_NAMES, type Policies } from "./registry.ts";
import { reviewPolicies } from "./review/index.ts";
import type { GrantReport } from "./review/types.ts";
import { httpLlmClient } from "./llm/client.ts";
import { MemoryLlmUsage } from "./llm/usage.ts";
import { StoreLocks } from "./store/locks.ts";
import type { CapabilityHost, GrantRequest, InvocationCapabilities, PreparedGrants, PrepareResult } from "./types.ts";

/**
 * The CapabilityHost: grants are parsed once per hook (`prepare`, at load), bound to each
 * event (`forInvocation`). PreparedGrants stay the public shape ({hookId, summary}); the parsed
 * policies are kept aside, so grants cannot be forged or edited by whoever holds the object.
 */
export function createCapabilityHost(deps: CapabilityDeps): CapabilityHost {
  const prepared = new WeakMap<PreparedGrants, Policies>();
  const untrusted = new WeakMap<PreparedGrants, { readonly project: string }>();
  const stores = new StoreLocks();
  const llm = { client: deps.llm ?? httpLlmClient(deps.io), usage: deps.llmUsage ?? new MemoryLlmUsage() };

  const policiesOf = (grants: PreparedGrants): Policies => {
    const policies = prepared.get(grants);
    if (!policies) throw new Error(`grants for hook ${grants.hookId} were not prepared by this capability host`);
    return policies;
  };

  return {
    async prepare(request: GrantRequest, operator: OperatorGrants): Promise<PrepareResult> {
      const sources = grantSources(request, operator);
      const errors: string[] = [];
      const warnings: string[] = [];
      const policies: Record<string, unknown> = {};
      for (const name of CAPABILITY_NAMES) policies[name] = await CAPABILITIES[name].parse(sources, deps, errors, warnings);
      if (errors.length > 0) return { ok: false, errors };
      const parsed = policies as Policies;
      const summary = CAPABILITY_NAMES.flatMap((name) => CAPABILITIES[name].summary(parsed[name] as never));
      const grants: PreparedGrants = Object.freeze({ hookId: request.hookId, summary: Object.freeze(summary) });
      prepared.set(grants, parsed);
      if (request.untrusted) untrusted.set(grants, request.untrusted);
      return warnings.length > 0 ? { ok: true, grants, warnings } : { ok: true, grants };
    },

    mayInjectContext(grants: PreparedGrants): boolean {
      return !untrusted.has(grants) && flagVerdict(policiesOf(grants).inject_context).ok;
    },

    review(grants: PreparedGrants): GrantReport {
      const lines = reviewPolicies(policiesOf(grants), { hookId: grants.hookId, home: deps.home });
      const project = untrusted.get(grants);
      return project ? { lines, untrusted: project } : { lines };
    },

    mayModify(grants: PreparedGrants, field: string) {
      const verdict = modifyVerdict(policiesOf(grants).modify, field);
      if (verdict.ok) return { ok: true } as const;
      const why =
        verdict.by === "declared"
          ? `its permissions.modify does not list ${field}`
          : verdict.by === "default"
            ? `${verdict.reason}; the operator can allow it with hooks.${grants.hookId}.permissions.modify: [${field}]`
            : verdict.by === "deny"
              ? `the operator's deny list refuses it`
              : `the operator's ${verdict.by === "approval" ? `hooks.${grants.hookId}.permissions.modify` : "ceilings.permissions.modify"} does not allow ${field}`;
      return { ok: false, reason: why } as const;
    },

    isTransform(grants: PreparedGrants): boolean {
      return mayModifyAnything(policiesOf(grants).modify);
    },

    forInvocation(grants: PreparedGrants, event: NativeEvent): InvocationCapabilities {
      return createInvocation(grants.hookId, policiesOf(grants), deps, event, { stores, llm }, untrusted.get(grants));
    },
  };
}
