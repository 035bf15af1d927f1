import { Option, type Command } from "commander";
import type { SandboxLimits } from "../../sandbox/index.ts";
import { defaultSandboxLimits, LIMITS, limitFlag, type LimitDescriptor, type LimitsTable } from "../core/limits.ts";
import { HookboxError } from "../core/errors.ts";

/** The limit flags mirror the YAML `limits` keys, one per row of the limits table; values are in the units their names say. */
export function addLimitFlags(command: Command, table: LimitsTable = LIMITS): Command {
  for (const d of table) command.addOption(new Option(`${limitFlag(d)} <n>`, `limits.${d.yaml}: ${d.min}–${d.max} (default ${d.default})`));
  return command;
}

/** Commander's name for a flag's value: `--memory-mb` → memoryMb. */
function optionKey(d: LimitDescriptor): string {
  return d.yaml.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
}

export function limitsFromFlags(options: Record<string, unknown>, table: LimitsTable = LIMITS): SandboxLimits {
  const limits: Record<string, number> = { ...defaultSandboxLimits(table) };
  for (const d of table) {
    const raw = options[optionKey(d)];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < d.min || value > d.max) {
      throw new HookboxError("usage", `${limitFlag(d)} must be a whole number from ${d.min} to ${d.max}, got ${String(raw)}`);
    }
    limits[d.sandbox] = value * d.scale;
  }
  return limits as unknown as SandboxLimits;
}
