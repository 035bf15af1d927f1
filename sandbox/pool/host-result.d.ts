import { type SandboxLimits } from "../limits.ts";
import type { HostCallError } from "../types.ts";
/** No host result larger than this travels to a worker, whatever the hook's memory limit. */
export declare const MAX_HOST_RESULT_CHARS: number;
/**
 * The largest host result (as JSON text) a hook can take: the engine's budget
 * (hostResultMemoryBudget), and never above MAX_HOST_RESULT_CHARS. Checked in the parent,
 * before the result is serialized onto the worker's pipe: a 16 MiB file of NUL bytes is 96 MiB
 * of JSON.
 */
export declare function hostResultBudget(limits: SandboxLimits): number;
/** Results are measured up to this size, so the error can name it; beyond it, "more than". */
export declare const MEASURED_HOST_RESULT_CHARS: number;
/** The `result_too_large` error the guest receives (and can catch) instead of an oversized result. */
export declare function resultTooLarge(name: string, chars: number, limits: SandboxLimits): HostCallError;
/**
 * Length of JSON.stringify(value) in UTF-16 code units, without building the string; stops
 * counting once past `max` (the result is then some number above `max`). Throws like
 * JSON.stringify on a cycle or a BigInt.
 */
export declare function jsonLength(value: unknown, max: number): number;
