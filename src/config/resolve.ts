import { KiB, MiB, type Isolation, type SandboxLimits } from "../../sandbox/index.ts";
import { checkEventName } from "../events/names.ts";
import { dirname, isInside, resolvePath } from "../text/posix-path.ts";
import type { HookFile, LimitsConfig, MatchConfig, OperatorFile, PermissionsConfig } from "./schema.ts";

/**
 * Where a hook came from: shown and audited, and it orders hooks (registry TIER): the operator's
 * and standard hooks, then installed packages (a hookbox.lock describes them), then the project's.
 */
export type HookOrigin = "builtin" | "user" | "project" | "dir" | "package";

/**
 * Hooks the operator did not write or choose by path: a project's (they arrive with a `git clone`)
 * and installed packages (a community author's). They run under community_limits and may not
 * rewrite events unless the operator allows it.
 */
export function isCommunity(origin: HookOrigin): boolean {
  return origin === "project" || origin === "package";
}

/** A hook with every default and operator override applied: no optional settings left. */
export interface HookDefinition {
  readonly id: string;
  /** Canonical names (aliases resolved). */
  readonly events: readonly string[];
  readonly enabled: boolean;
  readonly priority: number;
  /** Set by the operator file (hooks.<id>.priority): the hook is ordered among the operator's own, whoever wrote it. */
  readonly priorityPinned: boolean;
  readonly summary: string;
  readonly description: string | undefined;
  readonly match: MatchConfig;
  readonly handler: { readonly kind: "file"; readonly path: string } | { readonly kind: "inline"; readonly code: string };
  /** What the hook declares; the capability host intersects it with the operator's rules. */
  readonly permissions: PermissionsConfig;
  readonly limits: SandboxLimits;
  readonly onError: "continue" | "deny";
  readonly cooldownMs: number;
  readonly isolation: Isolation;
  readonly approval: { readonly timeoutMs: number; readonly default: "allow" | "deny" };
  readonly config: Readonly<Record<string, unknown>>;
  readonly effects: readonly string[];
  readonly source: { readonly file: string; readonly origin: HookOrigin };
}

export function limitsFromConfig(limits: LimitsConfig): SandboxLimits {
  return {
    cpuMs: limits.cpu_ms,
    memoryBytes: limits.memory_mb * MiB,
    stackBytes: limits.stack_kb * KiB,
    timeoutMs: limits.timeout_ms,
    resultBytes: limits.result_kb * KiB,
    logBytes: limits.log_kb * KiB,
    hostCalls: limits.host_calls,
  };
}

/** Each limit is the lowest of the hook's own, the operator's for this hook and the global ceiling. */
function narrowLimits(hook: LimitsConfig, ...caps: (Partial<LimitsConfig> | undefined)[]): LimitsConfig {
  const result: Record<string, number> = { ...hook };
  for (const cap of caps) {
    for (const [key, value] of Object.entries(cap ?? {})) {
      if (typeof value === "number") result[key] = Math.min(result[key] as number, value);
    }
  }
  return result as LimitsConfig;
}

export type ResolveResult = { readonly ok: true; readonly hook: HookDefinition } | { readonly ok: false; readonly field: string; readonly message: string };

export function resolveHook(file: HookFile, source: { file: string; origin: HookOrigin }, operator: OperatorFile): ResolveResult {
  const override = operator.hooks[file.id] ?? {};
  const names = file.events ?? (file.event_type ? [file.event_type] : []);
  const events = [...new Set(names.map((name) => {
    const check = checkEventName(name);
    return check.ok ? check.name : name;
  }))];
  let handler: HookDefinition["handler"];
  if (typeof file.handler === "string") {
    // The handler must live with its hook file: a hook directory cannot point Hookbox at other files.
    const dir = dirname(source.file);
    const path = resolvePath(dir, file.handler);
    if (!isInside(dir, path)) {
      return { ok: false, field: "handler", message: `${file.handler} is outside the hook's directory ${dir}; keep the handler next to its YAML` };
    }
    handler = { kind: "file", path };
  } else {
    handler = { kind: "inline", code: file.handler.code };
  }
  return {
    ok: true,
    hook: {
      id: file.id,
      events,
      enabled: override.enabled ?? file.enabled,
      priority: override.priority ?? file.priority,
      priorityPinned: override.priority !== undefined,
      summary: file.summary,
      description: file.description,
      match: file.match,
      handler,
      permissions: file.permissions,
      limits: limitsFromConfig(narrowLimits(file.limits, override.limits, operator.ceilings.limits, isCommunity(source.origin) ? operator.ceilings.community_limits : undefined)),
      onError: override.on_error ?? file.on_error,
      cooldownMs: (override.cooldown_seconds ?? file.cooldown_seconds) * 1000,
      isolation: file.isolation,
      approval: { timeoutMs: file.approval.timeout_ms, default: file.approval.default },
      config: { ...file.config, ...(override.config ?? {}) },
      effects: file.effects,
      source,
    },
  };
}
