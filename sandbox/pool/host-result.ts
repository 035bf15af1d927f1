import { formatBytes, hostResultMemoryBudget, MiB, type SandboxLimits } from "../limits.ts";
import type { HostCallError } from "../types.ts";

/** No host result larger than this travels to a worker, whatever the hook's memory limit. */
export const MAX_HOST_RESULT_CHARS = 64 * MiB;

/**
 * The largest host result (as JSON text) a hook can take: the engine's budget
 * (hostResultMemoryBudget), and never above MAX_HOST_RESULT_CHARS. Checked in the parent,
 * before the result is serialized onto the worker's pipe: a 16 MiB file of NUL bytes is 96 MiB
 * of JSON.
 */
export function hostResultBudget(limits: SandboxLimits): number {
  return Math.min(hostResultMemoryBudget(limits), MAX_HOST_RESULT_CHARS);
}

/** Results are measured up to this size, so the error can name it; beyond it, "more than". */
export const MEASURED_HOST_RESULT_CHARS = 4 * MAX_HOST_RESULT_CHARS;

/** The `result_too_large` error the guest receives (and can catch) instead of an oversized result. */
export function resultTooLarge(name: string, chars: number, limits: SandboxLimits): HostCallError {
  const budget = hostResultBudget(limits);
  const size = chars > MEASURED_HOST_RESULT_CHARS ? `more than ${formatBytes(MEASURED_HOST_RESULT_CHARS)}` : formatBytes(chars);
  return {
    name: "HookboxError",
    code: "result_too_large",
    message: `hook.${name}() returned ${size} as JSON, over the ${formatBytes(budget)} one host result may take under this hook's memory limit (${formatBytes(limits.memoryBytes)}); ask for less (e.g. a smaller maxBytes) or raise limits.memory_mb`,
  };
}

/**
 * Length of JSON.stringify(value) in UTF-16 code units, without building the string; stops
 * counting once past `max` (the result is then some number above `max`). Throws like
 * JSON.stringify on a cycle or a BigInt.
 */
export function jsonLength(value: unknown, max: number): number {
  const ancestors = new Set<object>();
  let total = 0;
  const visit = (v: unknown, key: string): boolean => {
    if (v !== null && typeof v === "object" && typeof (v as { toJSON?: unknown }).toJSON === "function")
      v = (v as { toJSON: (k: string) => unknown }).toJSON(key);
    switch (typeof v) {
      case "string":
        total += stringLength(v, max - total);
        return true;
      case "number":
        total += Number.isFinite(v) ? String(v).length : 4;
        return true;
      case "boolean":
        total += v ? 4 : 5;
        return true;
      case "bigint":
        throw new TypeError("a BigInt is not JSON");
      case "object":
        break;
      default:
        return false; // undefined, function, symbol: omitted in objects, null in arrays
    }
    if (v === null) {
      total += 4;
      return true;
    }
    if (ancestors.has(v)) throw new TypeError("a cyclic structure is not JSON");
    ancestors.add(v);
    total += 2;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length && total <= max; i++) {
        if (i > 0) total += 1;
        if (!visit(v[i], String(i))) total += 4;
      }
    } else {
      let first = true;
      for (const k of Object.keys(v)) {
        if (total > max) break;
        const before = total;
        total += (first ? 0 : 1) + stringLength(k, Infinity) + 1;
        if (visit((v as Record<string, unknown>)[k], k)) first = false;
        else total = before;
      }
    }
    ancestors.delete(v);
    return true;
  };
  visit(value, "");
  return total;
}

/** JSON length of a string literal: quotes plus escapes; stops scanning once past `max`. */
function stringLength(s: string, max: number): number {
  let n = s.length + 2;
  if (n > max) return n;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20) n += c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 1 : 5;
    else if (c === 0x22 || c === 0x5c) n += 1;
    else if (c >= 0xd800 && c <= 0xdfff) {
      const pair = c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      if (pair) i++;
      else n += 5; // a lone surrogate is written as \udXXX
    }
    if (n > max) return n;
  }
  return n;
}
