import { Option, type Command } from "commander";
import { DEFAULT_LIMITS, KiB, MAX_LIMITS, MIN_LIMITS, MiB, type SandboxLimits } from "../../sandbox/index.ts";
import { HookboxError } from "../core/errors.ts";

/** The limit flags mirror the YAML `limits` keys; values are in the units their names say. */
const FLAGS = [
  { flag: "--cpu-ms <n>", key: "cpuMs", scale: 1, yaml: "cpu_ms" },
  { flag: "--memory-mb <n>", key: "memoryBytes", scale: MiB, yaml: "memory_mb" },
  { flag: "--stack-kb <n>", key: "stackBytes", scale: KiB, yaml: "stack_kb" },
  { flag: "--timeout-ms <n>", key: "timeoutMs", scale: 1, yaml: "timeout_ms" },
] as const;

export function addLimitFlags(command: Command): Command {
  for (const { flag, key, scale, yaml } of FLAGS) {
    const lo = MIN_LIMITS[key] / scale;
    const hi = MAX_LIMITS[key] / scale;
    command.addOption(new Option(flag, `limits.${yaml}: ${lo}–${hi} (default ${DEFAULT_LIMITS[key] / scale})`));
  }
  return command;
}

export function limitsFromFlags(options: Record<string, unknown>): SandboxLimits {
  const limits: Record<keyof SandboxLimits, number> = { ...DEFAULT_LIMITS };
  for (const { flag, key, scale } of FLAGS) {
    const optionKey = flag.slice(2, flag.indexOf(" ")).replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
    const raw = options[optionKey];
    if (raw === undefined) continue;
    const value = Number(raw);
    const lo = MIN_LIMITS[key] / scale;
    const hi = MAX_LIMITS[key] / scale;
    if (!Number.isInteger(value) || value < lo || value > hi) {
      throw new HookboxError("usage", `${flag.split(" ")[0]} must be a whole number from ${lo} to ${hi}, got ${String(raw)}`);
    }
    limits[key] = value * scale;
  }
  return limits;
}
