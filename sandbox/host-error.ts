import type { HostCallError } from "./types.ts";

/** Reduce whatever a host function rejected with to name, message and code: no host stack or object crosses. */
export function toHostCallError(error: unknown): HostCallError {
  if (error && typeof error === "object") {
    const e = error as { name?: unknown; message?: unknown; code?: unknown };
    const code = typeof e.code === "string" ? e.code : undefined;
    return {
      name: typeof e.name === "string" ? e.name : "HookboxError",
      message: typeof e.message === "string" ? e.message : "host call failed",
      ...(code ? { code } : {}),
    };
  }
  return { name: "HookboxError", message: String(error) };
}
