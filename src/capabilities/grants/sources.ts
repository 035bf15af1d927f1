import type { LlmEndpointConfig } from "../../hooks/config/llm-schema.ts";
import type { NotifySinkConfig } from "../../hooks/config/notify-schema.ts";
import type { OperatorFile, PermissionsConfig } from "../../hooks/config/schema.ts";
import type { GrantRequest } from "../types.ts";
import { isCommunity } from "../../hooks/config/resolve.ts";

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
  readonly deny: OperatorFile["deny"];
  /** The operator's own hook (standard, user, --hooks or hooks_dirs), not a project's or a package's. */
  readonly operatorOwn: boolean;
  /** Where hook.notify sends (the operator's notify.sinks). */
  readonly notifySinks: readonly NotifySinkConfig[];
  /** The model endpoints hook.llm.complete may ask (the operator's llm:). */
  readonly llmEndpoints: Readonly<Record<string, LlmEndpointConfig>>;
}

export function grantSources(request: GrantRequest, operator: OperatorFile): GrantSources {
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
