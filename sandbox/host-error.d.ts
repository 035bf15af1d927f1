import type { HostCallError } from "./types.ts";
/** Reduce whatever a host function rejected with to name, message and code: no host stack or object crosses. */
export declare function toHostCallError(error: unknown): HostCallError;
