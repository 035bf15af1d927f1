// src/runtime owns every use of Bun.*, Deno.* and node:* APIs; nothing else may import them.
// This file picks the adapter for the runtime we are on and loads only that one.
import type { RuntimeHost } from "./types.ts";

export type { AppendHandle, DirEntry, FileHost, FetchHandler, HttpReply, ListenTarget, Listener, NetHost, RuntimeHost, SandboxHost } from "./types.ts";
export type { CapabilityIO } from "./capability-io.ts";

export async function detectRuntime(): Promise<RuntimeHost> {
  const g = globalThis as { Bun?: unknown; Deno?: unknown };
  if (g.Bun) return (await import("./bun.ts")).createBunHost();
  if (g.Deno) return (await import("./deno.ts")).createDenoHost();
  return (await import("./node.ts")).createNodeHost();
}
