import type { Isolation, SandboxLimits } from "../../../sandbox/index.ts";
import { toSandboxLimits } from "../../core/limits.ts";
import { checkEventName } from "../../core/events/names.ts";
import { dirname, isInside, resolvePath } from "../../core/text/posix-path.ts";
import type { PermissionsConfig } from "../../capabilities/grants/schema.ts";
import { isCommunity, type HookOrigin } from "../../core/origin.ts";
import type { HookFile, LimitsConfig, MatchConfig, OperatorFile } from "./schema.ts";
import type { ConditionConfig, ResultTemplate, StepConfig } from "./steps-schema.ts";
import { parseDuration, type WatchConfig } from "./trigger-schema.ts";

/** A hook with every default and operator override applied: no optional settings left. */
export interface HookDefinition {
  readonly id: string;
  /** Canonical names (aliases resolved). */
  readonly events: readonly string[];
  readonly enabled: boolean;
  readonly priority: number;
  /** Set by the operator file (hooks.<id>.priority): the hook is ordered among the operator's own, whoever wrote it. */
  readonly priorityPinned: boolean;
  /** monitor (hooks.<id>.mode in the operator file): shadow mode, it runs and decides nothing (src/decide/chain/shadow.ts). */
  readonly mode: "enforce" | "monitor";
  readonly summary: string;
  readonly description: string | undefined;
  readonly match: MatchConfig;
  /** Undefined for a hook written in YAML alone (steps and then). */
  readonly handler: { readonly kind: "file"; readonly path: string } | { readonly kind: "inline"; readonly code: string } | undefined;
  /** What runs it besides agents' events: a schedule, a watch (both may be absent). */
  readonly triggers: HookTriggers;
  /** Its steps, conditions and result template; undefined for a hook that has none. */
  readonly declarative: Declarative | undefined;
  /** What the hook declares; the capability host intersects it with the operator's rules. */
  readonly permissions: PermissionsConfig;
  readonly limits: SandboxLimits;
  readonly onError: "continue" | "deny";
  readonly cooldownMs: number;
  /**
   * Declared `background: true`: "granted" when the operator file grants it (hooks.<id>.background),
   * "not-granted" otherwise (it then runs in the foreground, and its record says why); false: not asked.
   */
  readonly background: "granted" | "not-granted" | false;
  readonly isolation: Isolation;
  readonly approval: { readonly timeoutMs: number; readonly default: "allow" | "deny" };
  readonly config: Readonly<Record<string, unknown>>;
  readonly effects: readonly string[];
  readonly source: { readonly file: string; readonly origin: HookOrigin };
}

export type Schedule = { readonly kind: "every"; readonly seconds: number } | { readonly kind: "cron"; readonly pattern: string };

export interface ResolvedWatch {
  readonly paths: readonly string[];
  /** As written; resolved against the project when the watch starts. */
  readonly baseDir: string | undefined;
  readonly recursive: boolean;
  /** Lower-case, with the dot; undefined: every file. */
  readonly extensions: readonly string[] | undefined;
  /** Undefined: the operator's triggers.debounce_ms. */
  readonly debounceMs: number | undefined;
  readonly on: readonly ("created" | "modified" | "deleted")[];
  /** auto: each path is watched as what it is when the watch starts; the seed's event_type fixes it. */
  readonly kind: "auto" | "file" | "folder";
}

export interface HookTriggers {
  readonly schedule?: Schedule;
  readonly watch?: ResolvedWatch;
}

export interface Declarative {
  readonly steps: readonly StepConfig[];
  readonly when: readonly ConditionConfig[];
  readonly skipIf: readonly ConditionConfig[];
  readonly then: ResultTemplate | undefined;
  /** A prompt hook: the template the model is asked, and how its answer becomes the result. */
  readonly prompt: (PromptAnswer & { readonly template: string }) | undefined;
}

/** How a prompt hook's model answers ({decision, reason} or {ok, reason}) and what its "no" does. */
export interface PromptAnswer {
  readonly format: "decision" | "ok";
  readonly onDeny: "deny" | "ask_user" | "inject_context";
  /** Replaces Hookbox's system prompt. */
  readonly system: string | undefined;
}

/** Hooks with a trigger of their own run in the daemon, on their schedule or watch. */
export function hasTriggers(definition: Pick<HookDefinition, "triggers">): boolean {
  return definition.triggers.schedule !== undefined || definition.triggers.watch !== undefined;
}

/** The seed's trigger object and the native keys, as one: the events it answers and its triggers. */
function triggersOf(file: HookFile): { events: string[]; triggers: HookTriggers } {
  const seed = file.trigger;
  if (seed?.type === "periodic") return { events: [], triggers: { schedule: { kind: "every", seconds: seed.interval_seconds ?? 3600 } } };
  if (seed?.type === "event") {
    const type = seed.event_type as string;
    const watch = seed.watch
      ? { ...seed.watch, on: ["created", "modified", "deleted"] as const, kind: type === "file.changed" ? ("file" as const) : ("folder" as const) }
      : undefined;
    return { events: watch ? [] : [type], triggers: watch ? { watch: resolveWatch(watch) } : {} };
  }
  const names = file.events ?? (file.event_type ? [file.event_type] : []);
  const seconds = file.every !== undefined ? parseDuration(file.every) : file.interval_seconds;
  const schedule: Schedule | undefined =
    seconds !== undefined ? { kind: "every", seconds } : file.cron !== undefined ? { kind: "cron", pattern: file.cron } : undefined;
  return {
    events: names,
    triggers: { ...(schedule ? { schedule } : {}), ...(file.watch ? { watch: resolveWatch({ ...file.watch, kind: "auto" }) } : {}) },
  };
}

function resolveWatch(
  watch: Omit<WatchConfig, "on" | "debounce_ms"> & {
    on: readonly ("created" | "modified" | "deleted")[];
    debounce_ms?: number;
    kind: ResolvedWatch["kind"];
  },
): ResolvedWatch {
  return {
    paths: watch.paths,
    baseDir: watch.base_dir,
    recursive: watch.recursive,
    extensions: watch.extensions?.map((ext) => (ext.startsWith(".") ? ext : `.${ext}`).toLowerCase()),
    debounceMs: watch.debounce_ms,
    on: [...new Set(watch.on)],
    kind: watch.kind,
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

export type ResolveResult =
  { readonly ok: true; readonly hook: HookDefinition } | { readonly ok: false; readonly field: string; readonly message: string };

export function resolveHook(file: HookFile, source: { file: string; origin: HookOrigin }, operator: OperatorFile): ResolveResult {
  const override = operator.hooks[file.id] ?? {};
  const { events: names, triggers } = triggersOf(file);
  const events = [
    ...new Set(
      names.map((name) => {
        const check = checkEventName(name);
        return check.ok ? check.name : name;
      }),
    ),
  ];
  let handler: HookDefinition["handler"];
  if (file.handler === undefined) {
    handler = undefined;
  } else if (typeof file.handler === "string") {
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
  const template = file.prompt ?? file.prompt_template;
  const prompt =
    template === undefined
      ? undefined
      : { template, format: file.answer?.format ?? "decision", onDeny: file.answer?.on_deny ?? "deny", system: file.answer?.system };
  return {
    ok: true,
    hook: {
      id: file.id,
      events,
      enabled: override.enabled ?? file.enabled,
      priority: override.priority ?? file.priority,
      priorityPinned: override.priority !== undefined,
      mode: override.mode ?? "enforce",
      summary: file.summary,
      description: file.description,
      match: file.match,
      handler,
      triggers,
      // An unsupported step kind never validates (steps-schema.ts): what is left are the supported ones.
      declarative:
        file.steps || file.then || prompt !== undefined
          ? { steps: (file.steps ?? []) as StepConfig[], when: file.when ?? [], skipIf: file.skip_if ?? [], then: file.then, prompt }
          : undefined,
      // A prompt hook asks a model: with no endpoint named, the operator's default one.
      permissions: prompt !== undefined && file.permissions.llm.length === 0 ? { ...file.permissions, llm: ["default"] } : file.permissions,
      limits: toSandboxLimits(
        narrowLimits(
          file.limits,
          override.limits,
          operator.ceilings.limits,
          isCommunity(source.origin) ? operator.ceilings.community_limits : undefined,
        ),
      ),
      onError: override.on_error ?? file.on_error,
      cooldownMs: (override.cooldown_seconds ?? file.cooldown_seconds) * 1000,
      background: file.background ? (override.background === true ? "granted" : "not-granted") : false,
      isolation: file.isolation,
      approval: { timeoutMs: file.approval.timeout_ms, default: file.approval.default },
      config: { ...file.config, ...(override.config ?? {}) },
      effects: file.effects,
      source,
    },
  };
}
