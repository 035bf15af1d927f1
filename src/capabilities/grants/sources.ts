import { isCommunity } from "../../core/origin.ts";
import type { LlmEndpointConfig } from "../llm/schema.ts";
import type { NotifySinkConfig } from "../notify/schema.ts";
import type { GrantRequest } from "../types.ts";
import type { DenyConfig, PermissionsConfig } from "./schema.ts";

export type PermissionKind = keyof PermissionsConfig;

/** Everything that decides one hook's permissions: its YAML and the three parts of the operator file. */
export interface GrantSources {
  readonly hookId: string;
  /** The hook file, for messages. */
  readonly file: string;
  readonly declared: PermissionsConfig;
  /** `hooks.<id>.permissions`: a kind absent here is not narrowed by approval. */
  readonly approval: Partial<PermissionsConfig> | undefined;
  /** `ceilings.permissions`: a kind absent here gets the default ceiling. */
  readonly ceiling: Partial<PermissionsConfig> | undefined;
  readonly deny: DenyConfig;
  /** The operator's own hook (standard, user, --hooks or hooks_dirs), not a project's or a package's. */
  readonly operatorOwn: boolean;
  /** Where hook.notify sends (the operator's notify.sinks). */
  readonly notifySinks: readonly NotifySinkConfig[];
  /** The model endpoints hook.llm.complete may ask (the operator's llm:). */
  readonly llmEndpoints: Readonly<Record<string, LlmEndpointConfig>>;
}

/**
 * What the capabilities read of the operator file (src/hooks/config/schema.ts's OperatorFile is
 * one): per-hook approvals, ceilings and the deny list of permissions, and where notify and llm
 * may go.
 */
export interface OperatorGrants {
  readonly hooks: Readonly<Record<string, { readonly permissions?: Partial<PermissionsConfig> | undefined }>>;
  readonly ceilings: { readonly permissions?: Partial<PermissionsConfig> | undefined };
  readonly deny: DenyConfig;
  readonly notify: { readonly sinks: readonly NotifySinkConfig[] };
  readonly llm: Readonly<Record<string, LlmEndpointConfig>>;
}

export function grantSources(request: GrantRequest, operator: OperatorGrants): GrantSources {
  // Hook ids are user text: "constructor" must not find Object.prototype.constructor.
  const override = Object.hasOwn(operator.hooks, request.hookId) ? operator.hooks[request.hookId] : undefined;
  return {
    hookId: request.hookId,
    file: request.file,
    declared: request.permissions,
    approval: override?.permissions,
    ceiling: operator.ceilings.permissions,
    deny: operator.deny,
    operatorOwn: !isCommunity(request.origin),
    notifySinks: operator.notify.sinks,
    llmEndpoints: operator.llm,
  };
}
