import { DEFAULT_LIMITS, KiB, MAX_LIMITS, MiB, MIN_LIMITS, type SandboxLimits } from "../../sandbox/limits.ts";
import type { ErrorCodeV1 } from "./wire/error-codes.ts";

/**
 * The one limits table: a row per limit a hook runs under. Everything else that names the limits
 * is a function of it — the YAML schema of `limits:` and of the operator's overrides, ceilings and
 * `community_limits` (hooks/config/limits-schema.ts), `hookbox run`'s flags (cli/limits-flags.ts),
 * the registration JSON and its wire schema (hooks/registry/registration.ts, core/wire/hooks.ts),
 * `hookbox new`'s scaffold (decide/testing/scaffold.ts) — and test/core/limits.test.ts holds the
 * rest (README's table, the sandbox's failure texts, the error codes) to it. A new limit is one row
 * here, after the sandbox enforces it (sandbox/limits.ts: its numbers, in the sandbox's units).
 *
 * It reads sandbox/limits.ts, which imports nothing, rather than the sandbox's index: the wire
 * (and with it hookbox/client) is built on this table and must not pull the engine in.
 */

/** The unit a limit is written in (YAML, flags, registration): it is the last part of its key. */
export type LimitUnit = "ms" | "MiB" | "KiB" | "calls";

export interface LimitDescriptor {
  /** Its key under `limits:` (a hook's YAML, the operator's overrides and ceilings, registration JSON), unit in the name. */
  readonly yaml: string;
  /** Its name in the sandbox (SandboxLimits), in the sandbox's unit: ms, bytes or calls. */
  readonly sandbox: string;
  readonly unit: LimitUnit;
  /** Sandbox units per unit written: memory_mb × 1 MiB = memoryBytes. */
  readonly scale: number;
  /** Bounds and default, in `unit`: the sandbox's MIN_LIMITS, MAX_LIMITS and DEFAULT_LIMITS. */
  readonly min: number;
  readonly max: number;
  readonly default: number;
  /** The failure code a run that breaks it ends with. */
  readonly code: ErrorCodeV1;
  /** The one layer that enforces it. */
  readonly enforcedBy: string;
  /** What it bounds, one line (README's table says the same). */
  readonly description: string;
  /** `ceilings.community_limits` when the operator writes none: the most a project's or a package's hook gets. */
  readonly community?: number;
  /** What `hookbox new` writes for it in a new hook's YAML, when it writes it. */
  readonly scaffold?: number;
}

const SCALE: Record<LimitUnit, number> = { ms: 1, calls: 1, KiB, MiB };

type RowText = Pick<LimitDescriptor, "code" | "enforcedBy" | "description" | "community" | "scaffold">;

/** A row: bounds and default are the sandbox's own, converted to the unit the key names. */
function limit<Y extends string, S extends keyof SandboxLimits>(
  yaml: Y,
  sandbox: S,
  unit: LimitUnit,
  text: RowText,
): LimitDescriptor & { yaml: Y; sandbox: S } {
  const scale = SCALE[unit];
  return {
    yaml,
    sandbox,
    unit,
    scale,
    min: MIN_LIMITS[sandbox] / scale,
    max: MAX_LIMITS[sandbox] / scale,
    default: DEFAULT_LIMITS[sandbox] / scale,
    ...text,
  };
}

export const LIMITS = [
  limit("cpu_ms", "cpuMs", "ms", {
    code: "sandbox_cpu",
    enforcedBy:
      "the QuickJS interrupt (sandbox/engine/guard.ts); on Linux the pool kills the worker 50 ms of its CPU time past it (sandbox/pool/step-watch.ts)",
    description:
      "guest CPU time; host calls don't count (Linux: the worker is killed at 50 ms of its CPU time past it, should QuickJS not stop the guest first)",
    community: 1000,
    scaffold: 50,
  }),
  limit("memory_mb", "memoryBytes", "MiB", {
    code: "sandbox_memory",
    enforcedBy: "the hook module's fixed-maximum WebAssembly.Memory and QuickJS's allocation limit (sandbox/engine/slot.ts)",
    description: "guest heap (hard cap on the hook's WebAssembly memory)",
    scaffold: 16,
  }),
  limit("stack_kb", "stackBytes", "KiB", {
    code: "sandbox_stack",
    enforcedBy: "QuickJS's stack limit (sandbox/engine/slot.ts)",
    description: "guest stack",
  }),
  limit("timeout_ms", "timeoutMs", "ms", {
    code: "sandbox_timeout",
    enforcedBy: "the worker (sandbox/engine/guard.ts); the pool kills a worker that does not yield (sandbox/pool/step-watch.ts)",
    description: "wall clock for the invocation, host calls included",
    community: 5000,
    scaffold: 2000,
  }),
  limit("result_kb", "resultBytes", "KiB", {
    code: "sandbox_result_size",
    enforcedBy: "when the result leaves the guest (sandbox/engine/invocation.ts)",
    description: "size of the returned JSON",
  }),
  limit("log_kb", "logBytes", "KiB", {
    code: "sandbox_log_size",
    enforcedBy: "as log lines are emitted (sandbox/engine/invocation.ts)",
    description: "total console / `hook.log` output",
  }),
  limit("host_calls", "hostCalls", "calls", {
    code: "sandbox_host_calls",
    enforcedBy: "the host-call bridge (sandbox/engine/invocation.ts)",
    description: "capability calls per invocation",
  }),
] as const;

export type LimitsTable = readonly LimitDescriptor[];
export type LimitYamlKey = (typeof LIMITS)[number]["yaml"];
/** The limits as written: a number per YAML key, in the key's unit. */
export type LimitsInYaml = Record<LimitYamlKey, number>;

/** Compile-time: every limit the sandbox enforces has a row. */
type Unlisted = Exclude<keyof SandboxLimits, (typeof LIMITS)[number]["sandbox"]>;
export const LIMITS_COMPLETE: [Unlisted] extends [never] ? true : Unlisted = true;

/** Its `hookbox run` flag: the YAML key with dashes (`--cpu-ms`). */
export function limitFlag(d: LimitDescriptor): string {
  return `--${d.yaml.replaceAll("_", "-")}`;
}

/** A record with one entry per row. */
export function byLimit<T>(table: LimitsTable, value: (d: LimitDescriptor) => T): Record<LimitYamlKey, T> {
  return Object.fromEntries(table.map((d) => [d.yaml, value(d)])) as Record<LimitYamlKey, T>;
}

/** Limits as written (a value per YAML key) in the sandbox's units. */
export function toSandboxLimits(written: Readonly<Record<string, number>>, table: LimitsTable = LIMITS): SandboxLimits {
  return Object.fromEntries(table.map((d) => [d.sandbox, (written[d.yaml] as number) * d.scale])) as unknown as SandboxLimits;
}

/** The sandbox's limits as they are written: a value per YAML key, in its unit. */
export function inYamlUnits(limits: SandboxLimits, table: LimitsTable = LIMITS): LimitsInYaml {
  const values = limits as unknown as Readonly<Record<string, number>>;
  return byLimit(table, (d) => (values[d.sandbox] as number) / d.scale);
}

/** Every limit at its default, in the sandbox's units. */
export function defaultSandboxLimits(table: LimitsTable = LIMITS): SandboxLimits {
  return toSandboxLimits(
    byLimit(table, (d) => d.default),
    table,
  );
}
