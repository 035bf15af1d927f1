// src/capabilities/modify owns the grant to rewrite an event's fields (permissions.modify); it must not import above src/capabilities.
import type { Capability } from "../capability.ts";
import { decide, listLayer, type Layer, type Verdict } from "../grants/layers.ts";
import type { GrantSources } from "../grants/sources.ts";

/**
 * `modify`: the fields of an event a hook may rewrite (`tool_input`, `tool_input.command`,
 * `prompt` …). A rewrite is a power over every other hook — the checks after it see what it
 * wrote — so it is the operator's to give: by default only the operator's own hooks (the
 * standard ones, ~/.config/hookbox/hooks, --hooks and hooks_dirs) may rewrite; a project's or a
 * package's hook needs `hooks.<id>.permissions.modify` or `ceilings.permissions.modify`.
 */
export interface ModifyPolicy {
  readonly declared: readonly string[];
  readonly approval: readonly string[] | undefined;
  readonly ceiling: readonly string[] | undefined;
  readonly operatorOwn: boolean;
}

/** Does `path` cover `field` (the field itself, or one of its ancestors)? */
export function covers(path: string, field: string): boolean {
  return field === path || field.startsWith(`${path}.`);
}

const fieldLayer = (paths: readonly string[]): Layer<string> => listLayer(paths, covers, (path) => path);

export function modifyVerdict(policy: ModifyPolicy, field: string): Verdict {
  return decide(
    {
      declared: fieldLayer(policy.declared),
      approval: policy.approval === undefined ? undefined : fieldLayer(policy.approval),
      ceiling: policy.ceiling === undefined ? undefined : fieldLayer(policy.ceiling),
      defaultCeiling: {
        refuse: () => (policy.operatorOwn ? undefined : "rewrites are the operator's to allow: only the operator's own hooks may modify by default"),
      },
      deny: { match: () => undefined },
    },
    field,
  );
}

/** Whether the hook may rewrite anything at all (it then runs among the transforms, before the checks). */
export function mayModifyAnything(policy: ModifyPolicy): boolean {
  if (policy.declared.length === 0) return false;
  if (policy.operatorOwn) return true;
  return (policy.approval?.length ?? 0) > 0 || (policy.ceiling?.length ?? 0) > 0;
}

export const modifyCapability: Capability<ModifyPolicy> = {
  name: "modify",
  parse: (sources: GrantSources) => ({
    declared: sources.declared.modify,
    approval: sources.approval?.modify,
    ceiling: sources.ceiling?.modify,
    operatorOwn: sources.operatorOwn,
  }),
  summary: (policy) => policy.declared.map((field) => `modify ${field}`),
  contribute: () => ({}),
};
