import type { HostCallFn } from "../../sandbox/index.ts";
import type { HookOrigin } from "../core/origin.ts";
import type { GrantReport } from "./review/types.ts";
import type { LlmCallRecord } from "./llm/record.ts";
import type { OperatorGrants } from "./grants/sources.ts";
import type { PermissionsConfig } from "./grants/schema.ts";
import type { InjectionRole, NativeEvent } from "../core/events/types.ts";

/**
 * The contract between the registry/dispatcher and the capabilities (host APIs for handlers).
 * Every `hook.*` method exists in the guest; calling one that was not granted throws
 * PermissionDenied there, naming the hook, the API, the target and the YAML that would grant it.
 */
export const HOOK_API_METHODS = [
  "readFile",
  "listFiles",
  "run",
  "gitDiff",
  "fileDiff",
  "runTests",
  "http.get",
  "env",
  "injectContext",
  "store.get",
  "store.set",
  "store.delete",
  "notify",
  "llm.complete",
] as const;

export type HookApiMethod = (typeof HOOK_API_METHODS)[number];

/** What the registry knows of a hook when it prepares its grants (once, at load). */
export interface GrantRequest {
  readonly hookId: string;
  /** What the hook's YAML declares. */
  readonly permissions: PermissionsConfig;
  /** The hook file, for error messages. */
  readonly file: string;
  /** Whose the hook is: some grants (modify) default to the operator's own hooks only. */
  readonly origin: HookOrigin;
  /**
   * A project hook the user has not trusted (`hookbox trust`): its grants are parsed and reviewed
   * as declared, but it gets none of them — every hook.* call is refused naming `hookbox trust`,
   * and it cannot inject context.
   */
  readonly untrusted?: { readonly project: string };
}

/** Grants parsed once into typed descriptors; opaque to everything but src/capabilities. */
export interface PreparedGrants {
  readonly hookId: string;
  /** Human summary for `hookbox list` (e.g. "read ${workspace}/**; run git diff --stat *"). */
  readonly summary: readonly string[];
}

/** `warnings`: problems that leave the hook loadable (a run grant whose command is not on this machine is inert). */
export type PrepareResult =
  | { readonly ok: true; readonly grants: PreparedGrants; readonly warnings?: readonly string[] }
  | { readonly ok: false; readonly errors: readonly string[] };

/** One call a handler made through its hook object, attributed and timed, for the run record. */
export interface HostCallRecord {
  readonly capability: HookApiMethod | string;
  /** What it touched: a path, a command line, a URL, a variable or store key. */
  readonly target: string;
  readonly outcome: "allowed" | "denied" | "error";
  readonly duration_ms: number;
  /** Denial or error message. */
  readonly detail?: string;
}

/** The capabilities of one invocation of one hook on one event. */
export interface InvocationCapabilities {
  readonly call: HostCallFn;
  /** Filled as the handler calls host APIs. */
  readonly hostCalls: readonly HostCallRecord[];
  /** Context the handler injected with hook.injectContext (already capped). */
  readonly injections: readonly { readonly content: string; readonly role: InjectionRole }[];
  /** The model calls it made (hook.llm.complete, a prompt hook), for the run record. */
  readonly llmCalls: readonly LlmCallRecord[];
}

export interface CapabilityHost {
  /** Resolve a hook's declared permissions against the operator file (ceilings, per-hook approvals, deny). */
  prepare(request: GrantRequest, operator: OperatorGrants): Promise<PrepareResult>;
  /** Whether a prepared hook may inject context (the result's context_injection needs it too). */
  mayInjectContext(grants: PreparedGrants): boolean;
  /** Whether a prepared hook may rewrite this field (`tool_input.command`); the reason when not. */
  mayModify(grants: PreparedGrants, field: string): { readonly ok: true } | { readonly ok: false; readonly reason: string };
  /** Whether it may rewrite anything at all: such hooks run among the transforms, before the checks. */
  isTransform(grants: PreparedGrants): boolean;
  /** The effective grants, one line per declared grant (granted, capped or refused, and what would allow it). */
  review(grants: PreparedGrants): GrantReport;
  /** Bind grants to one event: `${workspace}` becomes the event's cwd. */
  forInvocation(grants: PreparedGrants, event: NativeEvent): InvocationCapabilities;
}
